// The entry of `bin/run.js`: checks the TILL_* settings, then hands the command line to oclif. The build
// bundles this file, every command and their dependencies into one file with esbuild (scripts/bundle.js),
// which bin/run.js loads with a code cache (./compile-cache.ts).
import {execute, type Interfaces} from '@oclif/core'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {globalsAfterCommand} from './argv.js'
import {cacheKind, runLabel} from './compile-cache.js'
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
  const named = useRunManifest(rootDir, argv)
  // the postrun hook acts after `till autocomplete` only (src/areas/completion/postrun.ts): loading it after
  // any other command named in full costs a module lookup and three modules
  if (named && !named.startsWith('autocomplete')) delete pjson.oclif.hooks?.postrun
  noTypeScriptLookup()
  await execute({args, loadOptions: {root: rootDir, pjson}})
}

/**
 * till runs its bundle, never TypeScript sources: oclif would otherwise look for them (reading tsconfig.json
 * and loading a TypeScript compiler) whenever NODE_ENV is `development` or `test`, as it often is in a Node
 * developer's shell or a test runner, which would cost a command more than its whole start-up.
 * oclif's settings are the object at globalThis.oclif.
 */
function noTypeScriptLookup(): void {
  const global = globalThis as {oclif?: {enableAutoTranspile?: boolean}}
  global.oclif ??= {}
  global.oclif.enableAutoTranspile = false
}

/**
 * A command's run reads a manifest without the texts of help and completion, made by the build
 * (scripts/sort-manifest.js): the command's own (dist/bundle/run-manifests/<id>.json, ids with dots) when
 * the command line names one in full, else every command's (dist/bundle/run-manifest.json), which a topic,
 * an alias or a typo needs. oclif's plugin asks `globalThis.__tillManifest` which file to read
 * (scripts/bundle-edits.js). The help of one command with none below it reads that command with its texts
 * (dist/bundle/help-manifests/<id>.json); other help, the root's command list and shell completion read the
 * whole one: a command's own manifest is smaller to read and parse than every command's.
 * Returns the id (with dots) of a command named in full for its run, if any.
 */
function useRunManifest(rootDir: string, argv: string[]): string | undefined {
  const whole = join(rootDir, 'oclif.manifest.json')
  const bundle = join(rootDir, 'dist', 'bundle')
  const args = globalsAfterCommand(argv)
  const kind = cacheKind(argv)
  /** The longest command id the words name in full that has a manifest in `folder`, with its file. */
  const namedIn = (folder: string): {id: string; file: string} | undefined => {
    const id = runLabel(argv, join(bundle, folder))
    return id === undefined ? undefined : {id, file: join(bundle, folder, `${id}.json`)}
  }
  let run: string | undefined
  let named: string | undefined
  // shell completion (`till autocomplete`, `till completion SHELL`) reads every command with its texts
  if ((kind === 'command' || kind === 'stream') && args[0] !== 'autocomplete' && args[0] !== 'completion') {
    // the command named in full reads a manifest of its own; anything else (a topic, an alias, a typo) all commands
    const own = namedIn('run-manifests')
    run = own?.file
    named = own?.id
    if (!run && existsSync(join(bundle, 'run-manifest.json'))) run = join(bundle, 'run-manifest.json')
  } else if (kind === 'help' && args[0] !== 'help') {
    // the help of one command with none below it (`till products list --help`) reads that command with its texts
    run = namedIn('help-manifests')?.file
  }
  ;(globalThis as {__tillManifest?: (path: string) => string}).__tillManifest = (path) => (run && path === whole ? run : path)
  return named
}
