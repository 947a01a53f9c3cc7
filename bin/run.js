#!/usr/bin/env node
import {execute} from '@oclif/core'

import {globalsAfterCommand} from '../dist/cli/argv.js'

await execute({args: globalsAfterCommand(process.argv.slice(2)), dir: import.meta.url})
