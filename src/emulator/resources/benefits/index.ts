// Benefits and the grants that give them to customers.
export {register} from './routes.js'
export {collections} from './model.js'
