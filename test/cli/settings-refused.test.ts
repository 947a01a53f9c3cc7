// Settings and flags refused before anything is sent: a secret in a setting (TILL_WEBHOOK_SECRET, as
// TILL_TOKEN) is never shown in the error, since settings are checked before every command and CI logs keep
// what a command prints; and a duration that becomes a timer is refused past what a timer holds (2^31-1 ms:
// a longer one fires at once, and every request ended after 1 ms).
import {describe, expect, it} from 'vitest'

import {emulatorAndSandbox, envVars, linesOf, runCli} from '../helpers/cli.js'
import {scaled} from '../helpers/machine.js'

const shared = emulatorAndSandbox()

const SECRET = 'whsec_settingsRefusedSecret0123456789abcdef'

describe('a webhook secret with a stray character', () => {
  it.each([
    ['a carriage return', `${SECRET}\r`],
    ['a trailing space', `${SECRET} `],
    ['a space inside', `whsec_settings RefusedSecret0123456789abcdef`],
  ])('with %s is refused (exit 2) without being shown, before any command', async (_, value) => {
    const body = value.replace(/^whsec_/, '').trim()
    for (const args of [['--version'], ['products', 'list'], ['webhooks', 'verify', '--body', '-']]) {
      const r = await runCli(args, {env: shared.box.env({TILL_WEBHOOK_SECRET: value}), input: '{}'})
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr).toBe(
        'Error: TILL_WEBHOOK_SECRET is not valid: it has a space, line break or control character in it\n' +
          'Hint: set TILL_WEBHOOK_SECRET to the secret alone (no spaces, line breaks or control characters)\n',
      )
      for (const part of body.split(' ')) expect(r.stderr).not.toContain(part.slice(0, 12))
    }
  })
})

describe('a URL with a password that is not a URL', () => {
  it('TILL_API_URL with a space in its password is refused (exit 2) showing neither its user nor its password', async () => {
    const r = await runCli(['products', 'list'], {env: shared.box.env({TILL_API_URL: 'https://admin:pa ss@127.0.0.1:9/v1'})})
    expect(r.code, r.stderr).toBe(2)
    expect(linesOf(r.stderr)[0]).toBe('Error: TILL_API_URL is not a URL: "https://…@127.0.0.1:9/v1"')
    expect(r.stderr).not.toMatch(/admin|pa ss/)
  })
})

describe('a request deadline a timer cannot hold', () => {
  it('TILL_REQUEST_DEADLINE past 2147483 s is refused (exit 2) naming the range; the largest a timer holds works', async () => {
    const env = (deadline: string) => shared.box.env(envVars(shared.emulator.production, {TILL_REQUEST_DEADLINE: deadline}))
    const refused = await runCli(['products', 'list', '--limit', '1'], {env: env('3000000')})
    expect(refused.code, refused.stderr).toBe(2)
    expect(linesOf(refused.stderr)).toEqual([
      'Error: TILL_REQUEST_DEADLINE must be a number of seconds from 0.001 to 2147483 (e.g. 60), not "3000000"',
      'Hint: fix or unset TILL_REQUEST_DEADLINE',
    ])
    const tiny = await runCli(['products', 'list', '--limit', '1'], {env: env('0.0001')})
    expect(tiny.code, tiny.stderr).toBe(2)
    const largest = await runCli(['products', 'list', '--limit', '1', '-o', 'json'], {env: env('2147483')})
    expect(largest.code, largest.stderr).toBe(0)
    expect(largest.stderr).not.toContain('TimeoutOverflowWarning')
    expect(JSON.parse(largest.stdout)).toHaveLength(1)
  })

  it.each([
    ['auth login --web --timeout', ['auth', 'login', '--web', '--no-browser', '--timeout', '3000000']],
    ['events list --follow --interval', ['events', 'list', '--follow', '--interval', '3000000']],
    ['emulator start --latency', ['emulator', 'start', '--port', '0', '--latency', '3000000']],
    ['emulator start --webhook-backoff', ['emulator', 'start', '--port', '0', '--webhook-backoff', '600h']],
  ])('%s past what a timer holds is a usage error (exit 2), not a timer that fires at once', async (_, args) => {
    const r = await runCli(args, {env: shared.box.env(envVars(shared.emulator.production)), timeoutMs: scaled(20_000)})
    expect(r.code, r.stderr).toBe(2)
    expect(r.signal).toBeNull()
    expect(r.stderr).toMatch(/2147483|longer than a timer can wait/)
    expect(r.stderr).not.toContain('TimeoutOverflowWarning')
  })
})
