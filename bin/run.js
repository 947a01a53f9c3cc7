#!/usr/bin/env node
import {execute} from '@oclif/core'

import {globalsAfterCommand} from '../dist/cli/argv.js'
import {settingsProblem} from '../dist/cli/settings.js'

// Empty TILL_* settings mean unset, and invalid ones stop here, before oclif reads its own (config and data folders).
const problem = settingsProblem(process.env)
if (problem) {
  process.stderr.write(problem.text)
  process.exit(problem.exitCode)
}

await execute({args: globalsAfterCommand(process.argv.slice(2)), dir: import.meta.url})
