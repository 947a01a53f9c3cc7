// Disputes of payments.
export {register} from './routes.js'
export {collections} from './model.js'
