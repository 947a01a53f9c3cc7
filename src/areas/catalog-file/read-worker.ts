// A catalog file read in a worker thread (see readCatalogOffThread in read.ts): the text in, the catalog
// and its issues out, as readCatalog gives them.
import {parentPort, workerData} from 'node:worker_threads'

import {readCatalog} from './document.js'

parentPort?.postMessage(readCatalog(workerData as string))
