// Payments (read-only) and customers' payment methods, derived from paid orders and added in the portal.
export {register} from './routes.js'
export {collections} from './model.js'
