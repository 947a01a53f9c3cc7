// Customers (and their state).
export {register} from './routes.js'
export {collections} from './model.js'
