// node:assert as undici's and find-my-way's files in the bundles see it (scripts/bundle.js): they only
// ever call assert(value, message) to check an invariant, and node:assert costs five Node modules to
// load. A check that holds returns here; one that fails is handed to node:assert, which throws its
// AssertionError.
module.exports = function assert(value, message) {
  if (!value) require('node:assert').ok(value, message ?? 'an internal check failed')
}
