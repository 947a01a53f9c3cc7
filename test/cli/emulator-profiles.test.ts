// A profile on an emulator's address is an emulator profile whatever its environment is called: the README's
// offline sandbox profile (`till auth login --environment sandbox --url http://127.0.0.1:4011/v1`) drives the
// emulator's sandbox, its clock and its control surface included, and till trigger treats it as the emulator.
// A profile of the service is refused the control surface before any request.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {sandbox, type Sandbox} from '../helpers/cli.js'
import {control, startEmulator, type Emulator} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'

let emulator: Emulator
let box: Sandbox

beforeAll(async () => {
  emulator = await startEmulator()
  box = sandbox()
  const add = await runInProcess(['profiles', 'add', 'sandbox', '--environment', 'sandbox', '--url', emulator.sandbox.url, '--token-stdin'], {
    env: box.env(),
    input: `${emulator.sandbox.token}\n`,
  })
  expect(add.code, add.stderr).toBe(0)
  const service = await runInProcess(['profiles', 'add', 'websb', '--environment', 'sandbox', '--token-stdin', '--no-verify'], {
    env: box.env(),
    input: 'polar_oat_aServiceSandboxProfileToken0123456789\n',
  })
  expect(service.code, service.stderr).toBe(0)
})
afterAll(async () => {
  await emulator?.stop()
  box?.cleanup()
})

const till = (args: string[]) => runInProcess(args, {env: box.env()})

describe('a sandbox profile on the emulator', () => {
  it("shows and moves the emulator sandbox's clock", async () => {
    const shown = await till(['-p', 'sandbox', 'emulator', 'clock', '--json'])
    expect(shown.code, shown.stderr).toBe(0)
    expect(JSON.parse(shown.stdout)).toMatchObject({environment: 'sandbox', offset_ms: 0})
    const advanced = await till(['-p', 'sandbox', 'emulator', 'clock', 'advance', '1d'])
    expect(advanced.code, advanced.stderr).toBe(0)
    expect(Math.round((await control(emulator.sandbox, 'GET', '/clock')).body.offset_ms / 3_600_000)).toBe(24)
    expect((await control(emulator.production, 'GET', '/clock')).body.offset_ms).toBe(0)
  })

  it('till trigger --through-api pays a checkout there, as on the local emulator, instead of asking for a test card', async () => {
    const r = await till(['-p', 'sandbox', 'trigger', 'refund.created', '--through-api', '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('Done: the emulator emits refund.created')
    expect(r.stderr).not.toContain('Sandbox cannot pay')
    expect(JSON.parse(r.stdout).made.refund).toMatch(/^[0-9a-f-]{36}$/)
  })
})

describe("a profile of the service's sandbox", () => {
  it('is refused the control surface, naming its address, before any request', async () => {
    const r = await till(['-p', 'websb', 'emulator', 'clock'])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(
      'Error: profile "websb" is the service\'s sandbox (https://sandbox-api.polar.sh/v1): only an emulator has a control surface\n' +
        "Hint: use the local profile (--profile local), or a profile on the emulator's address (see docs/profiles.md), with till emulator start running\n",
    )
  })
})
