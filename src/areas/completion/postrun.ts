// The postrun hook (package.json oclif.hooks): after `till autocomplete ...` has written the bash and zsh
// scripts to the cache, amend them so that --profile / -p complete profile names (./profiles.ts). Every
// other command returns at once: this file stays small because oclif loads it after each command.
import type {Hook} from '@oclif/core'

import {existsSync, readFileSync, renameSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {type Amended, withBashProfiles, withZshProfiles} from './profiles.js'

const hook: Hook.Postrun = async ({Command, config}) => {
  if (!Command?.id?.startsWith('autocomplete') || Command.id === 'autocomplete:fish') return
  const functions = join(config.cacheDir, 'autocomplete', 'functions')
  const scripts: Array<[string, (text: string, bin: string) => Amended]> = [
    [join(functions, 'bash', `${config.bin}.bash`), withBashProfiles],
    [join(functions, 'zsh', `_${config.bin}`), withZshProfiles],
  ]
  for (const [path, amend] of scripts) {
    if (!existsSync(path)) continue
    const result = amend(readFileSync(path, 'utf8'), config.bin)
    if ('problem' in result) {
      process.stderr.write(`Warning: profile names will not complete in ${path}: ${result.problem}.\n`)
    } else if (result.changed) {
      // whole or not at all: a shell sourcing it never reads half a script
      writeFileSync(`${path}.tmp`, result.text)
      renameSync(`${path}.tmp`, path)
    }
  }
}

export default hook
