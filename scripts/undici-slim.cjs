// What the bundle uses of undici in place of its index: till needs only Agent and request(url, opts)
// with a dispatcher (src/client), and undici's index also loads fetch, WebSocket, caches and mocks
// (half of its code, and Node's own copy of undici with them). Used by scripts/bundle.js only;
// `till/client` (dist/client) imports undici itself.
const Agent = require('undici/lib/dispatcher/agent')
const Dispatcher = require('undici/lib/dispatcher/dispatcher')
const apiRequest = require('undici/lib/api/api-request')
const util = require('undici/lib/core/util')

// as undici's index does, for the one method till calls: request (its stream, pipeline, upgrade and connect,
// five more modules, are never asked for)
Dispatcher.prototype.request = apiRequest

/** undici's request(url, opts) for a URL and options naming their dispatcher, as its index builds it. */
function request(url, opts = {}) {
  const {dispatcher, ...rest} = opts
  if (!dispatcher) throw new TypeError('till passes a dispatcher with every request')
  const parsed = util.parseURL(url)
  return apiRequest.call(dispatcher, {
    ...rest,
    origin: parsed.origin,
    path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname,
    method: rest.method || (rest.body ? 'PUT' : 'GET'),
  })
}

module.exports = {Agent, request}
