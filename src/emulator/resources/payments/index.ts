// Payments (read-only) and customers' payment methods, derived from paid orders.
export {register} from './routes.js'
