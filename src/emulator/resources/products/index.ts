// Products and their prices.
export {register} from './routes.js'
export {collections} from './model.js'
