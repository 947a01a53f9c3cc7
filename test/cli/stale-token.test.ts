// A 401 for a token that came from TILL_TOKEN names the variable: `till auth login` cannot help while the
// variable overrides the profile's token. A profile's own token keeps the sign-in hint.
import {expect, it} from 'vitest'

import {emulatorAndSandbox, envVars} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'

const shared = emulatorAndSandbox()

it('a stale TILL_TOKEN is named, with the fix that works', async () => {
  const stale = `polar_oat_${'x'.repeat(43)}`
  const r = await runInProcess(['products', 'list'], {env: shared.box.env(envVars(shared.emulator.production, {TILL_TOKEN: stale}))})
  expect(r.code).toBe(4)
  expect(r.stderr).toMatch(/^Error: not authenticated: the token is invalid, expired or revoked \(the token in TILL_TOKEN\)$/m)
  expect(r.stderr).toContain("TILL_TOKEN overrides the profile's token: set it to a valid organization token, or unset it")
  expect(r.stderr).not.toContain('till auth login')
  expect(r.stderr).not.toContain(stale)
})

it("a profile's own token keeps the sign-in hint", async () => {
  const stale = `polar_oat_${'y'.repeat(43)}`
  const env = shared.box.env({TILL_CONFIG_DIR: `${shared.box.root}/stale-profile`})
  const add = await runInProcess(
    ['profiles', 'add', 'old', '--environment', 'local', '--url', shared.emulator.production.url, '--token-stdin', '--no-verify'],
    {
      env,
      input: `${stale}\n`,
    },
  )
  expect(add.code, add.stderr).toBe(0)
  const r = await runInProcess(['products', 'list', '-p', 'old'], {env})
  expect(r.code).toBe(4)
  expect(r.stderr).toContain('till auth login')
  expect(r.stderr).not.toContain('TILL_TOKEN overrides')
})
