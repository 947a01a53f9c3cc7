// The organization.
export {register} from './routes.js'
