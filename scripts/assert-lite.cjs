// node:assert as undici's files in the bundle see it (scripts/bundle.js): undici only ever calls
// assert(value) to check an invariant, and node:assert costs five Node modules to load. A check that
// holds returns here; one that fails is handed to node:assert, which throws its AssertionError.
module.exports = function assert(value, message) {
  if (!value) require('node:assert').ok(value, message ?? 'an internal check of undici failed')
}
