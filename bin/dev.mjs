#!/usr/bin/env -S node --import tsx
// Runs till from the TypeScript sources (no build): the commands and hooks are taken from src/ instead
// of the bundle that package.json names.
import {readFileSync} from 'node:fs'
import {dirname} from 'node:path'
import {fileURLToPath} from 'node:url'

import {execute} from '@oclif/core'

import {globalsAfterCommand} from '../src/cli/argv.ts'

const root = dirname(dirname(fileURLToPath(import.meta.url)))
const pjson = JSON.parse(readFileSync(`${root}/package.json`, 'utf8'))
pjson.oclif.commands = './src/commands'
pjson.oclif.hooks = {command_not_found: './src/cli/hooks/not-found.ts'}

await execute({args: globalsAfterCommand(process.argv.slice(2)), development: true, loadOptions: {root, pjson, devPlugins: false}})
