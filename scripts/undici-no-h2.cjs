// In the bundle, undici's HTTP/2 client is left out: till never asks for HTTP/2 (no allowH2), so a
// connection is only ever HTTP/1.1, and leaving it out spares loading node:http2, tls and crypto on every
// command. Used by scripts/bundle.js only.
module.exports = function connectH2() {
  throw new Error('HTTP/2 is not part of the till bundle (undici was asked for it, which till never does)')
}
