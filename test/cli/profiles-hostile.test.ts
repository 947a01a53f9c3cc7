// Profiles under hostile names and concurrent writers: a profile named like one of Object's own keys
// (`toString`, `constructor`...) is just a name, and twelve `profiles add` at once keep all twelve.
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {runCli, sandbox, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {scaled} from '../helpers/machine.js'

describe('profiles with hostile names and concurrent writers', () => {
  let box: Sandbox
  const till = (args: string[], input?: string) => runInProcess(args, {env: box.env({TILL_NO_UPDATE_NOTIFIER: '1'}), input})

  beforeEach(() => {
    box = sandbox()
  })
  afterEach(() => box.cleanup())

  const PROTOTYPE_KEYS = ['toString', 'constructor', 'valueOf', 'hasOwnProperty', '__proto__']

  it("a name that is a key of Object's prototype is no profile until added", async () => {
    for (const name of PROTOTYPE_KEYS) {
      const noProfile = new RegExp(`^Error: there is no profile named "${name}"$`, 'm')
      const viaFlag = await till(['products', 'list', '-p', name])
      expect({name, code: viaFlag.code, stderr: viaFlag.stderr}).toMatchObject({code: 2, stderr: expect.stringMatching(noProfile)})
      const show = await till(['profiles', 'show', name])
      expect({name, code: show.code, stderr: show.stderr}).toMatchObject({code: 2, stderr: expect.stringMatching(noProfile)})
      const use = await till(['profiles', 'use', name])
      expect({name, code: use.code, stderr: use.stderr}).toMatchObject({code: 2, stderr: expect.stringMatching(noProfile)})
      const remove = await till(['profiles', 'remove', name, '--yes'])
      expect({name, code: remove.code, stderr: remove.stderr}).toMatchObject({code: 2, stderr: expect.stringMatching(noProfile)})
    }
    // nothing of that broke the profile in use
    const show = await till(['profiles', 'show', '--json'])
    expect(show.code, show.stderr).toBe(0)
    expect(JSON.parse(show.stdout)).toMatchObject({name: 'local', active: true, environment: 'local'})
  })

  it('a profile named toString or constructor is added, used, shown and removed as any other', async () => {
    for (const name of ['toString', 'constructor']) {
      const add = await till(['profiles', 'add', name, '-e', 'sandbox', '--token-stdin', '--no-verify', '--use'], 'polar_oat_hostilename\n')
      expect(add.code, add.stderr).toBe(0)
      const show = await till(['profiles', 'show', name, '--json'])
      expect(show.code, show.stderr).toBe(0)
      expect(JSON.parse(show.stdout)).toMatchObject({name, active: true, environment: 'sandbox', token_source: 'profile'})
      const remove = await till(['profiles', 'remove', name, '--yes'])
      expect(remove.code, remove.stderr).toBe(0)
      const gone = await till(['profiles', 'show', name])
      expect(gone.code).toBe(2)
    }
    const list = await till(['profiles', 'list', '--json'])
    expect((JSON.parse(list.stdout) as Array<{name: string}>).map((p) => p.name)).toEqual(['local'])
  })

  it(
    'twelve `profiles add` at once: every one is kept',
    async () => {
      const names = Array.from({length: 12}, (_, i) => `p${i}`)
      const results = await Promise.all(
        names.map((name) =>
          runCli(['profiles', 'add', name, '-e', 'sandbox', '--token-stdin', '--no-verify'], {
            env: box.env(),
            input: `polar_oat_${name}\n`,
            timeoutMs: scaled(60_000),
          }),
        ),
      )
      for (const r of results) expect(r.code, r.stderr).toBe(0)
      const config = JSON.parse(readFileSync(join(box.configDir, 'config.json'), 'utf8')) as {profiles: Record<string, {token: string}>}
      expect(Object.keys(config.profiles).sort()).toEqual(['local', ...names].sort())
      for (const name of names) expect(config.profiles[name]!.token).toBe(`polar_oat_${name}`)
    },
    scaled(90_000),
  )
})
