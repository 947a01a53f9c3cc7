// Issue 34, what trips a newcomer on the first day and an operator on the hundredth: `till api` on a
// terminal, help and did-you-mean, the production footer, and the smaller items (sort orders, words,
// flag spellings). In-process runs against one emulator; terminals through a pseudo-terminal.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {envVars, runTty, sandbox, TILL, type CliResult, type Sandbox} from '../helpers/cli.js'
import {startEmulator, type Emulator} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'

describe('issue 34: first day, hundredth day', {timeout: 60_000}, () => {
  let emulator: Emulator
  let box: Sandbox
  const vars = (extra: Record<string, string | undefined> = {}) =>
    box.env({...envVars(emulator.production), TILL_ENV: 'local', TERM: 'xterm-256color', ...extra})
  const till = (args: string[], extra: Record<string, string | undefined> = {}): Promise<CliResult> => runInProcess(args, {env: vars(extra)})
  const tty = (line: string, extra: Record<string, string | undefined> = {}): Promise<CliResult> => runTty(`${TILL} ${line}`, {env: vars(extra)})

  beforeAll(async () => {
    emulator = await startEmulator()
    box = sandbox()
  })
  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
  })

  describe('till api (item 15)', () => {
    it('on a terminal the answer is indented and coloured; piped it is one line', async () => {
      const screen = await tty('api GET /organizations/')
      expect(screen.code, screen.stdout).toBe(0)
      expect(screen.stdout).toContain('\x1b[34m"items"\x1b[39m: [')
      expect(screen.stdout).toMatch(/^ {6}\x1b\[34m"id"\x1b\[39m: \x1b\[32m"[0-9a-f-]{36}"\x1b\[39m,$/m)
      const plain = await tty('api GET /organizations/', {NO_COLOR: '1'})
      expect(plain.stdout).not.toContain('\x1b[3')
      expect(plain.stdout).toMatch(/^ {6}"id": "[0-9a-f-]{36}",$/m)
      const piped = await till(['api', 'GET', '/organizations/'])
      expect(piped.code, piped.stderr).toBe(0)
      expect(piped.stdout.trim().split('\n')).toHaveLength(1)
      expect(JSON.parse(piped.stdout).items).toHaveLength(1)
    })

    it('--no-auth to a URL that does not answer names that URL, not the profile', async () => {
      const r = await till(['api', 'GET', 'http://127.0.0.1:9/status.json?x=1', '--no-auth'])
      expect(r.code).toBe(6)
      expect(r.stderr).toMatch(/^Error: cannot reach http:\/\/127\.0\.0\.1:9\/status\.json: /)
      expect(r.stderr).toContain('Hint: check the URL and the network')
      expect(r.stderr).not.toContain(emulator.production.url)
    })
  })
})
