// The entry of `bin/run.js`: checks the TILL_* settings, then hands the command line to oclif. The build
// bundles this file, every command and their dependencies into one file with esbuild (scripts/bundle.js),
// which bin/run.js loads with a code cache (./compile-cache.ts).
import {execute, type Interfaces} from '@oclif/core'
import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

import {globalsAfterCommand} from './argv.js'
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
  await execute({args, loadOptions: {root: rootDir, pjson}})
}
