// The entry of `bin/run.js`: checks the TILL_* settings, then hands the command line to oclif. The build
// bundles this file, every command and their dependencies into one file with esbuild (scripts/bundle.js),
// which bin/run.js loads with a code cache (./compile-cache.ts).
import {execute, type Interfaces} from '@oclif/core'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {globalsAfterCommand} from './argv.js'
import {cacheKind} from './compile-cache.js'
import {settingsProblem} from './settings.js'

/** Runs till with `argv` (without node and the script); `root` is where package.json is found from. */
export async function main(argv: string[], root: string): Promise<void> {
  // Empty TILL_* settings mean unset, and invalid ones stop here, before oclif reads its own (config and data folders).
  const problem = settingsProblem(process.env)
  if (problem) {
    process.stderr.write(problem.text)
    process.exit(problem.exitCode)
  }
  const args = globalsAfterCommand(argv)
  const rootDir = fileURLToPath(new URL('..', root))
  // read once here rather than by oclif, which would look for an oclif config file beside it too
  const pjson = JSON.parse(readFileSync(`${rootDir}/package.json`, 'utf8')) as Interfaces.PJSON
  useRunManifest(rootDir, argv)
  noTypeScriptLookup()
  await execute({args, loadOptions: {root: rootDir, pjson}})
}

/**
 * till runs its bundle, never TypeScript sources: oclif would otherwise look for them (reading tsconfig.json
 * and loading a TypeScript compiler) whenever NODE_ENV is `development` or `test`, as it often is in a Node
 * developer's shell or a test runner. Measured: 260 ms and 105 MiB for `profiles list`, against 90 ms and
 * 62 MiB. oclif's settings are the object at globalThis.oclif.
 */
function noTypeScriptLookup(): void {
  const global = globalThis as {oclif?: {enableAutoTranspile?: boolean}}
  global.oclif ??= {}
  global.oclif.enableAutoTranspile = false
}

/**
 * A command's run reads the manifest without the texts of help and completion (dist/bundle/run-manifest.json,
 * made by the build): oclif's plugin asks `globalThis.__tillManifest` which file to read (scripts/bundle.js).
 * Help, the root's command list and shell completion read the whole one.
 */
function useRunManifest(rootDir: string, argv: string[]): void {
  const whole = join(rootDir, 'oclif.manifest.json')
  const run = join(rootDir, 'dist', 'bundle', 'run-manifest.json')
  const slim = cacheKind(argv) === 'command' && globalsAfterCommand(argv)[0] !== 'autocomplete' && existsSync(run)
  ;(globalThis as {__tillManifest?: (path: string) => string}).__tillManifest = (path) => (slim && path === whole ? run : path)
}
