// `debug` (the logging package of oclif and its autocomplete plugin) as the bundle sees it (scripts/bundle.js).
// Loading it costs a command about 3 ms (it works out the terminal's colour support on load, with tty and
// supports-color), and it writes only when DEBUG names a namespace. So without DEBUG every logger is a
// no-op, and with it the package itself is loaded and does as it always does.
function createDebug(namespace) {
  if (process.env.DEBUG) return require('debug')(namespace)
  const log = () => {}
  log.namespace = namespace
  log.enabled = false
  log.extend = (more, delimiter = ':') => createDebug(`${namespace}${delimiter}${more}`)
  return log
}

module.exports = createDebug
module.exports.default = createDebug
