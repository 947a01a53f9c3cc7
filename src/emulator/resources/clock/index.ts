export {collections} from './model.js'
export {register} from './routes.js'
