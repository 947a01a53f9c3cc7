// Files: the upload flow (declare, upload the parts, complete), list, update, delete.
export {register} from './routes.js'
export {collections} from './model.js'
