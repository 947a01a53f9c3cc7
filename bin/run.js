#!/usr/bin/env node
// till's entry. CommonJS (bin/package.json), as all it loads is: an ES module entry costs every run
// Node's ES module loader, about 4 ms. Start-up fast paths come first: Node's compile cache where the
// Node version has it (22.1 and later), and `till --version` answered without loading oclif (as oclif
// would: name/version platform-arch node, plus the pinned API version; oclif takes a first argument
// `--version` as the question whatever follows it, and so does this). Everything else runs the bundled
// CLI (dist/bundle/cli/till.cjs, made by `npm run build`), loaded with a V8 code cache of its own on
// every Node version (src/cli/compile-cache.ts).
'use strict'
const module_ = require('node:module')
const {join} = require('node:path')

module_.enableCompileCache?.()
// undici parses HTTP with a WebAssembly module. Node 20 compiles it at its top tier up front, which
// doubles the peak memory of a one-page command (about 100 MiB instead of 60, measured): its functions
// start at the baseline tier and move up only once hot, which a long export still gets to.
require('node:v8').setFlagsFromString('--wasm-tiering-budget=10000000')

const boot = require('../dist/bundle/cli/boot.cjs')
const argv = process.argv.slice(2)
if (argv[0] === '--version') {
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
  const {exports} = boot.requireWithCache(join(bundle, 'cli', 'till.cjs'), boot.cacheKind(argv), process.env, label)
  exports.main(argv, require('node:url').pathToFileURL(__filename).href)
}
