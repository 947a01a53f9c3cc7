export {register} from './routes.js'
