// Members of customers (the organization's API) and of the signed-in team (the customer portal).
export {register} from './routes.js'
export {collections} from './model.js'
