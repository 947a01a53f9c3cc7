// Checkout sessions (with their public client-secret routes) and checkout links.
export {register} from './routes.js'
export {collections} from './model.js'
