// Orders and their invoices.
export {register} from './routes.js'
export {collections} from './model.js'
export {settle} from './settle.js'
