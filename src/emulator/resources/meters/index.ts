// Meters over the ingested events: filters, aggregations and quantities per period.
export {register} from './routes.js'
export {collections} from './model.js'
