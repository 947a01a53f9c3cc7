// Webhook endpoints, events and deliveries.
export {register} from './routes.js'
export {collections} from './model.js'
