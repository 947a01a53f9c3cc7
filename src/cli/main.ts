// The entry of `bin/run.js`: checks the TILL_* settings, then hands the command line to oclif. The build
// bundles this file and every command with esbuild (scripts/bundle.js), so that one command loads a few
// files instead of hundreds from node_modules.
import {execute, type Interfaces} from '@oclif/core'
import {readdirSync, readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

import {globalsAfterCommand} from './argv.js'
import {settingsProblem} from './settings.js'

/**
 * Whether oclif should load the plugins of package.json (oclif.plugins) for this command line. Loading
 * one costs a one-page command about 3% of its start-up (finding and reading the plugin's package.json
 * and manifest), and only the plugin's own commands, the root help and the did-you-mean of an unknown
 * word use them: a command line that starts with one of till's own words, other than the plugin's
 * `autocomplete`, runs without.
 */
export function needsPlugins(args: readonly string[], ownWords: ReadonlySet<string>): boolean {
  const first = args[0]
  return first === undefined || first.startsWith('-') || first === 'autocomplete' || !ownWords.has(first)
}

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
  const pjson = JSON.parse(readFileSync(`${rootDir}/package.json`, 'utf8')) as Interfaces.PJSON
  // the first words of till's commands: the entries of the bundled commands folder
  const ownWords = new Set(readdirSync(new URL('../commands/', import.meta.url)).map((name) => name.replace(/\.js$/, '')))
  if (!needsPlugins(args, ownWords)) pjson.oclif.plugins = []
  await execute({args, loadOptions: {root: rootDir, pjson}})
}
