// What a clock advance refuses: a duration or date past the last one a clock can hold, a date not on the
// calendar (both in the command, before any request, and in the control route, as a 422), a walk of more
// than 10 years without --far; and the command that shows the truth when an advance's answer is lost.
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {envVars, sandbox, type CliResult, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {control, startEmulator, type Emulator, type Json} from '../helpers/emulator.js'
import {scaled} from '../helpers/machine.js'

describe('the bounds of a clock advance', () => {
  let emulator: Emulator
  let box: Sandbox

  const till = (e: Emulator, args: string[]) => {
    const env = box.env({...envVars(e.production), TILL_ENV: 'local'})
    return runInProcess(args, {env, timeoutMs: scaled(60_000)})
  }
  const refused = (r: CliResult, words: RegExp) => {
    expect(r.code, `exit ${r.code}\n${r.stderr}\n${r.stdout}`).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(words)
    expect(r.stderr).not.toMatch(/\n\s+at /)
  }
  const clock = async (): Promise<Json> => (await control(emulator.production, 'GET', 'clock')).body

  beforeAll(async () => {
    emulator = await startEmulator({orders: 10, customers: 5})
  })
  afterAll(async () => {
    await emulator?.stop()
  })
  beforeEach(() => {
    box = sandbox()
  })
  afterEach(() => box.cleanup())

  it('the control route refuses what no clock reaches, a date off the calendar and over 10 years: a 422', async () => {
    const before = await clock()
    const cases: Array<[Json, string, RegExp]> = [
      [{duration: '300000y'}, 'ClockOutOfRange', /last date a clock can hold \(\+275760-09-13/],
      [{duration: '99999999999999999999d'}, 'ClockOutOfRange', /last date a clock can hold/],
      [{duration: '300000y', far: true}, 'ClockOutOfRange', /last date a clock can hold/],
      [{to: '2027-02-30'}, 'InvalidClockTarget', /not a date \(day value is outside expected range\)/],
      [{to: '2027-13-01'}, 'InvalidClockTarget', /month value is outside expected range/],
      [{duration: '200000y'}, 'ClockTooFar', /more than 10 years ahead: .*--far/],
      [{to: '9999-12-31'}, 'ClockTooFar', /more than 10 years ahead: .*--far/],
    ]
    for (const [body, error, detail] of cases) {
      const r = await control(emulator.production, 'POST', 'clock/advance', {body})
      expect(r.status, `${JSON.stringify(body)}: ${r.text}`).toBe(422)
      expect(r.body, JSON.stringify(body)).toMatchObject({error, detail: expect.stringMatching(detail)})
    }
    expect((await clock()).settled_to).toBe(before.settled_to)
    const far = await control(emulator.production, 'POST', 'clock/advance', {body: {duration: '11y', far: true}})
    expect(far.status, far.text).toBe(200)
  })

  it('the command refuses them in one line with exit 2, and names --far for a walk past 10 years', async () => {
    const advance = (...args: string[]) => till(emulator, ['emulator', 'clock', 'advance', ...args])
    refused(await advance('300000y'), /"300000y" goes past the last date a clock can hold \(\+275760-09-13\)/)
    refused(await advance('99999999999999999999d'), /goes past the last date a clock can hold/)
    refused(await advance('--to', '2027-02-30'), /--to "2027-02-30" is not a date \(day value/)
    refused(await advance('3x'), /"3x" is not a duration/)
    refused(await advance('200000y'), /more than 10 years ahead.*--far/)
    const far = await advance('12y', '--far')
    expect(far.code, far.stderr).toBe(0)
  })

  it('an advance whose answer is lost is exit 7, naming till emulator clock as what shows the truth', async () => {
    const cut = await startEmulator({orders: 10, customers: 5, resetRate: 1})
    try {
      const r = await till(cut, ['emulator', 'clock', 'advance', '1d'])
      expect(r.code, r.stderr).toBe(7)
      expect(r.stderr).toContain('till emulator clock')
      expect(r.stderr).not.toContain('till api GET')
    } finally {
      await cut.stop()
    }
  })
})
