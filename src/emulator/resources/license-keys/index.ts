// License keys and their activations.
export {register} from './routes.js'
export {collections} from './model.js'
