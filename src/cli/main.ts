// The entry of `bin/run.js`: checks the TILL_* settings, then hands the command line to oclif. The build
// bundles this file and every command with esbuild (scripts/bundle.js), so that one command loads a few
// files instead of hundreds from node_modules.
import {execute} from '@oclif/core'

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
  await execute({args: globalsAfterCommand(argv), dir: root})
}
