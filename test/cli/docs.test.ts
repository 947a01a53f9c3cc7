// The command reference in docs/commands is generated from the commands (npm run readme): this fails when
// a command, flag or description changed and the reference was not written again.
import {execFileSync} from 'node:child_process'
import {copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, relative} from 'node:path'

import {afterAll, expect, it} from 'vitest'

import {runCli} from '../helpers/cli.js'
import {ROOT} from '../helpers/emulator.js'
import {scaled} from '../helpers/machine.js'

const tmp = mkdtempSync(join(tmpdir(), 'till-docs-'))
afterAll(() => rmSync(tmp, {recursive: true, force: true}))

it(
  'docs/commands is what `npm run readme` writes now',
  () => {
    const out = join(tmp, 'commands')
    copyFileSync(join(ROOT, 'README.md'), join(tmp, 'README.md'))
    const oclif = join(ROOT, 'node_modules', 'oclif', 'bin', 'run.js')
    // oclif joins --output-dir to the working folder
    execFileSync(process.execPath, [oclif, 'readme', '--multi', '--output-dir', relative(ROOT, out), '--readme-path', join(tmp, 'README.md'), '--no-aliases'], {
      cwd: ROOT,
      stdio: 'pipe',
    })
    const committed = join(ROOT, 'docs', 'commands')
    const names = readdirSync(out).sort()
    expect(readdirSync(committed).sort(), 'run npm run readme').toEqual(names)
    for (const name of names)
      expect(readFileSync(join(committed, name), 'utf8'), `docs/commands/${name}: run npm run readme`).toBe(readFileSync(join(out, name), 'utf8'))
  },
  scaled(60_000),
)

it('the README is short, and its command list points into docs/commands', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  expect(readme.split('\n').length).toBeLessThanOrEqual(400)
  expect(readme).toContain('(docs/commands/orders.md)')
})

it("the README's uninstall section names every folder till makes in an empty home, and the keyring service", async () => {
  const home = mkdtempSync(join(tmpdir(), 'till-home-'))
  try {
    // the platform's folders, as a new user has them: none of till's or XDG's variables
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(TILL_|XDG_)/.test(name)))
    for (const args of [
      ['products', 'list', '--limit', '1'],
      ['profiles', 'use', 'local'],
    ]) {
      const r = await runCli(args, {env: {...env, HOME: home}})
      expect(r.code, r.stderr).toBe(0)
    }
    const made = ['.config', '.local/share', '.cache'].map((base) => join(base, 'till')).filter((dir) => statSync(join(home, dir), {throwIfNoEntry: false}))
    expect(made).toHaveLength(3)
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    const uninstall = /\n## Uninstall\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? ''
    for (const dir of made) expect(uninstall).toContain(`~/${dir}`)
    const {KEYRING_SERVICE} = await import('../../src/cli/config/keyring.js')
    expect(uninstall).toContain(`service \`${KEYRING_SERVICE}\``)
    expect(uninstall).toContain('till auth logout')
  } finally {
    rmSync(home, {recursive: true, force: true})
  }
})
