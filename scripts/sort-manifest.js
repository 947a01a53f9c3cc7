#!/usr/bin/env node
// `oclif manifest` writes the commands in the order its file walk found them, which differs from build to
// build: a fresh clone was left with thousands of changed lines after its first build. The commands are
// written again here in the order of their ids, so that the same sources always give the same file.
// It also writes dist/bundle/run-manifest.json: the same commands without the texts only help and shell
// completion read (descriptions, examples, usage), which a command's run reads instead (src/cli/main.ts):
// parsing the whole manifest costs every command time and memory, and it grows with each command;
// and one file per command (dist/bundle/run-manifests), which spares a run of a named command the others;
// and, for the help of one command, that command with its texts (dist/bundle/help-manifests).
import {mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const file = join(dirname(fileURLToPath(import.meta.url)), '..', 'oclif.manifest.json')
const manifest = JSON.parse(readFileSync(file, 'utf8'))
const ids = Object.keys(manifest.commands).sort()
manifest.commands = Object.fromEntries(ids.map((id) => [id, manifest.commands[id]]))
writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`)

const HELP_ONLY = ['description', 'examples', 'usage']
const FLAG_HELP_ONLY = ['description', 'summary', 'helpGroup', 'helpValue']
const slim = structuredClone(manifest)
for (const command of Object.values(slim.commands)) {
  for (const key of HELP_ONLY) delete command[key]
  for (const flag of Object.values(command.flags ?? {})) for (const key of FLAG_HELP_ONLY) delete flag[key]
  for (const arg of Object.values(command.args ?? {})) delete arg.description
}
writeFileSync(join(dirname(file), 'dist', 'bundle', 'run-manifest.json'), JSON.stringify(slim))

// And one per command, dist/bundle/run-manifests/<id>.json, with that command alone: what a run of a
// command named in full reads (src/cli/main.ts). Anything else (a topic, an alias, a typo) reads the one above.
const each = join(dirname(file), 'dist', 'bundle', 'run-manifests')
rmSync(each, {recursive: true, force: true})
mkdirSync(each, {recursive: true})
for (const [id, command] of Object.entries(slim.commands)) {
  writeFileSync(join(each, `${id.replaceAll(':', '.')}.json`), JSON.stringify({...slim, commands: {[id]: command}}))
}

// And the help of one command (`till products list --help`): dist/bundle/help-manifests/<id>.json, that
// command with its texts, for each command with none below it (the help of one that has lists them, and
// reads the whole manifest). Parsing the whole one costs such help start-up time.
const helps = join(dirname(file), 'dist', 'bundle', 'help-manifests')
rmSync(helps, {recursive: true, force: true})
mkdirSync(helps, {recursive: true})
for (const [id, command] of Object.entries(manifest.commands)) {
  if (ids.some((other) => other.startsWith(`${id}:`))) continue
  writeFileSync(join(helps, `${id.replaceAll(':', '.')}.json`), JSON.stringify({...manifest, commands: {[id]: command}}))
}
