// The postrun hook (package.json oclif.hooks): after `till autocomplete ...` has written the bash and zsh
// scripts to the cache, replace the bash one with till's own (./bash.ts: global flags before the command,
// flag values, profile names) and amend the zsh one so that --profile / -p complete profile names (./profiles.ts). Every
// other command returns at once: this file stays small because oclif loads it after each command.
import type {Hook} from '@oclif/core'

import {existsSync, readFileSync, renameSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {bashCompletion} from './bash.js'
import {completionCommands} from './commands.js'
import {type Amended, withZshProfiles} from './profiles.js'

const hook: Hook.Postrun = async ({Command, config}) => {
  if (!Command?.id?.startsWith('autocomplete') || Command.id === 'autocomplete:fish') return
  const functions = join(config.cacheDir, 'autocomplete', 'functions')
  // bash: the plugin's function is replaced by till's own (./bash.ts); zsh: amended with profile names
  const bash = (): Amended => ({text: bashCompletion(config.bin, completionCommands(config)), changed: true})
  const scripts: Array<[string, (text: string, bin: string) => Amended]> = [
    [join(functions, 'bash', `${config.bin}.bash`), bash],
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
