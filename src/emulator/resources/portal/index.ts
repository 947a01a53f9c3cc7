// The customer portal (customer-session routes).
export {register} from './routes.js'
export {collections} from './model.js'
