#!/usr/bin/env -S node --import tsx
import {execute} from '@oclif/core'

import {globalsAfterCommand} from '../src/cli/argv.ts'

await execute({args: globalsAfterCommand(process.argv.slice(2)), development: true, dir: import.meta.url})
