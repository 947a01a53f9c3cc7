// CSV exports of orders, subscriptions and customers.
export {register} from './routes.js'
