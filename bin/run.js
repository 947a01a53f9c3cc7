#!/usr/bin/env node
// till's entry. CommonJS (bin/package.json), as all it loads is: an ES module entry costs every run
// Node's ES module loader. Start-up fast paths come first: Node's compile cache (for this
// file and boot.cjs), and `till --version` (or `-v`, `-V`) answered without loading oclif (as oclif
// would: name/version platform-arch node, plus the pinned API version; oclif takes a first argument
// `--version` as the question whatever follows it, and so does this). Everything else runs the bundled
// CLI (dist/bundle/cli/till.cjs, made by `npm run build`), loaded with a V8 code cache of its own
// (src/cli/compile-cache.ts), which holds what a run compiled, where Node's holds only the top level.
'use strict'
const module_ = require('node:module')
const {join} = require('node:path')

// (an older Node than till's engines has none: it still runs, without the cache)
module_.enableCompileCache?.()

const boot = require('../dist/bundle/cli/boot.cjs')
const argv = process.argv.slice(2)
if (argv[0] === '--version' || argv[0] === '-v' || argv[0] === '-V') {
  const problem = boot.settingsProblem(process.env)
  if (problem) {
    process.stderr.write(problem.text)
    process.exit(problem.exitCode)
  }
  // the command's name, whatever the package is published as
  const {version} = require('../package.json')
  process.stdout.write(`till/${version} ${process.platform}-${process.arch} node-${process.version} polar-api/${boot.API_VERSION}\n`)
} else {
  // oclif checks the running Node against its own package.json with semver on load (47 modules): under
  // the bundle that file is not found and the check never runs anyway; this spares loading semver.
  process.env.OCLIF_DISABLE_ENGINE_WARNING ??= '1'
  const bundle = join(__dirname, '..', 'dist', 'bundle')
  const label = boot.runLabel(argv, join(bundle, 'run-manifests'))
  const kind = boot.cacheKind(argv)
  // a token kept in the OS keyring is read by a child process: started now, it runs while the bundle loads
  boot.readKeyringAhead(argv, process.env)
  // A stream (every page with `--all`, `events ingest`, a catalog) makes garbage as fast as pages arrive: V8 grows
  // its young generation to tens of MiB and lets the old one fill with promoted pages before it collects.
  // With the young generation kept at its first size and the old one grown by a tenth at a time, a stream
  // peaks lower, for more CPU time (figures in bench/README.md). A one-page command keeps V8's defaults.
  if (kind === 'stream') require('node:v8').setFlagsFromString('--semi-space-growth-factor=1 --heap-growing-percent=10')
  // --debug (or TILL_DEBUG): source maps on, so that a stack trace names till's own files (src/...) through the
  // bundle's map, which Node's require reads as it loads the bundle (requireWithCache then uses it)
  const debugging = argv.includes('--debug') || /^(1|true|yes|y)$/i.test(process.env.TILL_DEBUG ?? '')
  if (debugging) process.setSourceMapsEnabled(true)
  const {exports} = boot.requireWithCache(join(bundle, 'cli', 'till.cjs'), kind, process.env, label)
  exports.main(argv, require('node:url').pathToFileURL(__filename).href)
}
