// Events: ingest (deduplicated by external id), list, get and the names seen; the log lives beside the store.
export {register} from './routes.js'
