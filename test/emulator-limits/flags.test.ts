// The limit and fault flags of `emulator start`: bad values are usage errors (exit 2, STYLE.md),
// named in one line on stderr, and nothing starts; --latency delays every response.
import {afterAll, describe, expect, it} from 'vitest'

import {api} from '../helpers/emulator.js'
import {brief} from '../helpers/expect.js'
import {scaled} from '../helpers/machine.js'
import {cleanup, launch, runCli, tempDataDir} from './spawn.js'

afterAll(cleanup)

describe.concurrent('bad limit and fault flag values', {timeout: scaled(90_000)}, () => {
  const cases: Array<[string[], RegExp]> = [
    [['--rate-limit', 'abc'], /--rate-limit.*"abc" is not a rate limit/],
    [['--rate-limit', '5/0s'], /--rate-limit.*empty window/],
    [['--ip-rate-limit', '0/1s'], /--ip-rate-limit.*"0\/1s" is not a rate limit/],
    [['--fail-rate', '1.5'], /--fail-rate must be a number from 0 to 1, got "1\.5"/],
    [['--reset-rate', '-0.1'], /--reset-rate must be a number from 0 to 1, got "-0\.1"/],
    [['--latency', 'soon'], /--latency[\s\S]*"soon" is not a duration/],
  ]
  for (const [flags, message] of cases) {
    it(`${flags.join(' ')} exits 2 with a message naming the flag, and serves nothing`, async ({expect}) => {
      const run = await runCli(['emulator', 'start', '--port', '0', '--json', '--quiet', '--data', tempDataDir(), ...flags])
      expect(run.stdout).toBe('')
      expect(run.stderr).toMatch(message)
      expect(run.code, run.stderr).toBe(2)
    })
  }
})

describe('--latency 60ms', () => {
  it('delays every response by at least the latency', async () => {
    const emulator = await launch(['--rate-limit', 'off', '--latency', '60ms'])
    for (let i = 0; i < 5; i++) {
      const started = performance.now()
      const res = await api(emulator.production, 'GET', '/products/?limit=1')
      expect(res.status, brief(res)).toBe(200)
      expect(performance.now() - started).toBeGreaterThanOrEqual(59)
    }
    await emulator.stop()
  })
})
