export {collections} from './model.js'
export {register} from './routes.js'
export {walking} from './walk.js'
