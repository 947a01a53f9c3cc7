// Refunds of orders.
export {register} from './routes.js'
export {collections} from './model.js'
