// Custom checkout fields (text, number, date, checkbox, select), attached to products.
export {register} from './routes.js'
export {collections} from './model.js'
