#!/usr/bin/env node
// `oclif manifest` writes the commands in the order its file walk found them, which differs from build to
// build: a fresh clone was left with thousands of changed lines after its first build. The commands are
// written again here in the order of their ids, so that the same sources always give the same file.
import {readFileSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const file = join(dirname(fileURLToPath(import.meta.url)), '..', 'oclif.manifest.json')
const manifest = JSON.parse(readFileSync(file, 'utf8'))
const ids = Object.keys(manifest.commands).sort()
manifest.commands = Object.fromEntries(ids.map((id) => [id, manifest.commands[id]]))
writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`)
