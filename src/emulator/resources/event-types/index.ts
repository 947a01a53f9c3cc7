// Event types: the names of ingested events, with statistics and a label the organization may set.
export {register} from './routes.js'
export {collections} from './model.js'
