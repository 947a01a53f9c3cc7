#!/usr/bin/env node
// Start-up fast paths come first: Node's compile cache where the Node version has it (22.1 and later),
// and `till --version` answered without loading oclif (as oclif would: name/version platform-arch node, plus the pinned API version;
// oclif takes a first argument `--version` as the question whatever follows it, and so does this).
// Everything else runs the bundled CLI (dist/bundle/cli/till.cjs, made by `npm run build`), loaded with
// a V8 code cache of its own on every Node version (src/cli/compile-cache.ts).
import {readFileSync} from 'node:fs'
import module from 'node:module'
import v8 from 'node:v8'

module.enableCompileCache?.()
// undici parses HTTP with a WebAssembly module. Node 20 compiles it at its top tier up front, which
// doubles the peak memory of a one-page command (about 100 MiB instead of 60, measured): its functions
// start at the baseline tier and move up only once hot, which a long export still gets to.
v8.setFlagsFromString('--wasm-tiering-budget=10000000')

const argv = process.argv.slice(2)
if (argv[0] === '--version') {
  const {settingsProblem} = await import('../dist/cli/settings.js')
  const problem = settingsProblem(process.env)
  if (problem) {
    process.stderr.write(problem.text)
    process.exit(problem.exitCode)
  }
  const {name, version} = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  // and the API version requests are pinned to
  const {API_VERSION} = await import('../dist/client/version.js')
  process.stdout.write(`${name}/${version} ${process.platform}-${process.arch} node-${process.version} polar-api/${API_VERSION}\n`)
} else {
  // oclif checks the running Node against its own package.json with semver on load (47 modules): under
  // the bundle that file is not found and the check never runs anyway; this spares loading semver.
  process.env.OCLIF_DISABLE_ENGINE_WARNING ??= '1'
  const {cacheKind, requireWithCache} = await import('../dist/cli/compile-cache.js')
  const {exports} = requireWithCache(new URL('../dist/bundle/cli/till.cjs', import.meta.url), cacheKind(argv))
  await exports.main(argv, import.meta.url)
}
