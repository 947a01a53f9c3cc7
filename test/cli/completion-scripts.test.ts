// `till completion bash|zsh|fish` prints the whole script (no cache behind it), loaded here into the real
// shell: topics, a flag's fixed values and profile names are offered. `till` is on the PATH, as installed.
import {execFileSync} from 'node:child_process'
import {chmodSync, mkdirSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {ROOT} from '../helpers/emulator.js'
import {runCli, sandbox, type Sandbox} from '../helpers/cli.js'
import {fish, zsh} from '../helpers/tools.js'

const ZSH = zsh()
const FISH = fish()

describe('till completion SHELL prints the whole completion script', () => {
  let box: Sandbox
  let env: NodeJS.ProcessEnv
  const script = async (shell: string) => {
    const r = await runCli(['completion', shell], {env})
    expect(r.code, r.stderr).toBe(0)
    const path = join(box.root, `till.${shell}`)
    writeFileSync(path, r.stdout)
    return path
  }
  // the line typed so far, as the shell hands it to the completion function on TAB
  const shLine = (line: string) => `COMP_LINE=${JSON.stringify(line)}; COMP_POINT=\${#COMP_LINE}; _till_autocomplete; printf "%s\\n" "\${COMPREPLY[@]}"`
  const lines = (out: Buffer) => out.toString().split('\n').filter(Boolean)

  beforeAll(() => {
    box = sandbox()
    mkdirSync(join(box.root, 'bin'))
    writeFileSync(join(box.root, 'bin', 'till'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'bin', 'run.js'))} "$@"\n`)
    chmodSync(join(box.root, 'bin', 'till'), 0o755)
    env = box.env({PATH: `${join(box.root, 'bin')}:${process.env.PATH}`})
  })
  afterAll(() => box.cleanup())

  it('bash: every command, flag values and profile names, with no cache folder at all', async () => {
    const path = await script('bash')
    rmSync(join(box.root, 'cache'), {recursive: true, force: true})
    const complete = (line: string) => lines(execFileSync('bash', ['-c', `source "$1"; ${shLine(line)}`, 'bash', path], {env}))
    expect(complete('till orders list --status pa')).toEqual(['paid', 'partially_refunded'])
    expect(complete('till prod')).toEqual(['products'])
    expect(complete('till emulator ')).toEqual(expect.arrayContaining(['start', 'clock']))
    expect(complete('till -p ')).toEqual(expect.arrayContaining(['local']))
  })

  it.skipIf(ZSH.missing)(`zsh: registered through bashcompinit, the same function answers${ZSH.skipped}`, async () => {
    const path = await script('zsh')
    // zsh filters what is offered by the word typed itself (compadd): here, every candidate for the position
    const run = (line: string) =>
      lines(execFileSync('zsh', ['-fc', `source "$1"; print -r -- "\${_comps[till]}"; emulate sh -c '${shLine(line)}'`, 'zsh', path], {env}))
    const [registered, ...offered] = run('till orders list --status ')
    expect(registered).toBe('_bash_complete -F _till_autocomplete')
    expect(offered.sort()).toEqual(['draft', 'paid', 'partially_refunded', 'pending', 'refunded', 'void'])
    expect(run('till ').slice(1)).toEqual(expect.arrayContaining(['orders', 'products', 'emulator']))
  })

  it.skipIf(FISH.missing)(`fish: the script of till autocomplete fish${FISH.skipped}`, async () => {
    const path = await script('fish')
    const words = lines(execFileSync('fish', ['--no-config', '-c', `source ${path}; complete -C "till orders list --status pa"`], {env})).map(
      (l) => l.split('\t')[0],
    )
    expect(words).toEqual(['paid', 'partially_refunded'])
  })

  it('an unknown shell is a usage error naming the three', async () => {
    const r = await runCli(['completion', 'ksh'], {env})
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('bash, zsh, fish')
  })
})
