// What trips a newcomer on the first day and an operator on the hundredth: `till api` on a
// terminal, help and did-you-mean, the production footer, and the smaller items (sort orders, words,
// flag spellings). In-process runs against one emulator; terminals through a pseudo-terminal.
import {writeFileSync} from 'node:fs'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {envVars, runCli, runTty, sandbox, stripAnsi, TILL, type CliResult, type Sandbox} from '../helpers/cli.js'
import {startEmulator, type Emulator} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'
import {scaled} from '../helpers/machine.js'

describe('till api, help and the production footer for a newcomer and an operator', {timeout: scaled(60_000)}, () => {
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

  describe('till api', () => {
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

  describe('help and did-you-mean', () => {
    it('the root help starts with five commands to start with and the global flags, each line within 80 columns', async () => {
      const r = await till(['--help'])
      expect(r.code, r.stderr).toBe(0)
      const section = (name: string) => r.stdout.split(`\n${name}\n`)[1]!.split('\n\n')[0]!.split('\n')
      const start = section('START HERE')
      expect(start).toHaveLength(5)
      for (const line of [...start, ...section('GLOBAL FLAGS')]) expect(line.length, line).toBeLessThanOrEqual(80)
      expect(r.stdout.indexOf('START HERE')).toBeLessThan(r.stdout.indexOf('TOPICS'))
      expect(section('GLOBAL FLAGS').join('\n')).toMatch(/-p, --profile NAME[\s\S]*--no-input[\s\S]*--debug/)
      // each is a real command line: its help answers
      for (const line of start) {
        const words = line
          .trim()
          .split(/\s{2,}/)[0]!
          .split(' ')
          .slice(1)
        const flagAt = words.findIndex((w) => w.startsWith('-'))
        const help = await till([...(flagAt < 0 ? words : words.slice(0, flagAt)), '--help'])
        expect(help.code, `${line}\n${help.stderr}`).toBe(0)
      }
    })

    it('till help ordrs, till ordrs --help and till prodcts get the did-you-mean, exit 2', async () => {
      for (const args of [
        ['help', 'ordrs'],
        ['ordrs', '--help'],
      ]) {
        const r = await till(args)
        expect(r.code, args.join(' ')).toBe(2)
        expect(r.stderr).toBe('Error: "ordrs" is not a till command; did you mean "till orders"?\nHint: see the commands with: till --help\n')
        expect(r.stdout).toBe('')
      }
      const topic = await till(['prodcts'])
      expect(topic.code).toBe(2)
      expect(topic.stderr).toContain('Error: "prodcts" is not a till command; did you mean "till products"?')
      const command = await till(['orders', 'lst'])
      expect(command.stderr).toContain('did you mean "till orders list"?')
    })

    it('a missing required flag is one line naming the flag and what it is, exit 2', async () => {
      const r = await till(['report'])
      expect(r.code).toBe(2)
      expect(r.stderr).toBe('Error: missing --html: file to write the HTML report to (see: till report --help)\n')
      const two = await till(['custom-fields', 'create', '--type', 'text'])
      expect(two.code).toBe(2)
      expect(two.stderr).toMatch(
        /^Error: missing --name: name of the field; missing --slug: key of the answer: .* \(see: till custom-fields create --help\)\n$/,
      )
    })
  })

  it('the production footer stands out on a terminal: a warning word, bold red, not dim', async () => {
    const r = await tty('orders list --limit 2', {TILL_ENV: 'production'})
    expect(r.code, r.stdout).toBe(0)
    expect(r.stdout).toContain(`\x1b[1m\x1b[31mWarning: PRODUCTION data · profile local · ${emulator.production.url}\x1b[39m\x1b[22m`)
    expect(r.stdout).not.toContain('\x1b[2mWarning')
  })

  describe('smaller things', () => {
    const createdAt = (jsonl: string) =>
      jsonl
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as {created_at: string}).created_at)
    const newestFirst = (dates: string[]) => expect(dates).toEqual([...dates].sort().reverse())

    it('products, checkout links and custom fields list newest first', async () => {
      const products = await till(['products', 'list', '--all', '-o', 'jsonl'])
      expect(products.code, products.stderr).toBe(0)
      newestFirst(createdAt(products.stdout))
      const live = products.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as {id: string; is_archived: boolean})
        .find((p) => !p.is_archived)!
      const product = live.id
      for (let i = 0; i < 2; i++) {
        expect((await till(['checkout-links', 'create', '--product', product])).code).toBe(0)
        expect((await till(['custom-fields', 'create', '--type', 'text', '--slug', `a${i}-${Date.now()}`, '--name', 'A'])).code).toBe(0)
      }
      for (const resource of ['checkout-links', 'custom-fields']) {
        const r = await till([resource, 'list', '--all', '-o', 'jsonl'])
        expect(r.code, r.stderr).toBe(0)
        const dates = createdAt(r.stdout)
        expect(dates.length).toBeGreaterThanOrEqual(2)
        newestFirst(dates)
      }
    })

    it('orders list: --since/--until, the old --created-after/--created-before still taken', async () => {
      const all = await till(['orders', 'list', '--all', '-o', 'jsonl'])
      const dates = createdAt(all.stdout)
      const since = dates[Math.floor(dates.length / 2)]!
      const now = await till(['orders', 'list', '--all', '--since', since, '--columns', 'id'])
      const old = await till(['orders', 'list', '--all', '--created-after', since, '--columns', 'id'])
      expect(now.code, now.stderr).toBe(0)
      expect(now.stdout.split('\n').filter(Boolean).length).toBe(dates.filter((d) => d > since).length)
      expect(old.stdout).toBe(now.stdout)
      const help = await till(['orders', 'list', '--help'])
      expect(help.stdout).toContain('--since=<value>')
      expect(help.stdout).not.toContain('--created-after=')
    })

    it('-p sandbox or -p production before signing in names the sign-in that creates the profile', async () => {
      for (const name of ['sandbox', 'production']) {
        const r = await till(['-p', name, 'subscriptions', 'list', '--active'])
        expect(r.code).toBe(2)
        expect(r.stdout).toBe('')
        expect(r.stderr).toBe(
          `Error: there is no profile named "${name}"\nHint: sign in to ${name} first, which creates the profile "${name}": till auth login --environment ${name} (offline, the emulator's ${name}: add --url ${name === 'sandbox' ? 'http://127.0.0.1:4011/v1' : 'http://127.0.0.1:4010/v1'})\n`,
        )
      }
    })

    it('profiles use of a mistyped name names the nearest profile', async () => {
      const r = await till(['profiles', 'use', 'lcoal'])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('Error: there is no profile named "lcoal"; did you mean "local"?')
    })

    it('emulator start on the ports of a running emulator says one runs there, and how to use or stop it', async () => {
      const port = new URL(emulator.production.url).port
      const r = await runCli(['emulator', 'start', '--port', port, '--data', `${box.root}/emu`], {env: vars()})
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(`Error: an emulator is already running on port ${port} (production)`)
      expect(r.stderr).toMatch(/Hint: use it as it is .*stop it with till emulator stop \(or Ctrl-C where it runs\)/)
    })

    it('upload progress shows sizes for people; the ingest summary says "1 request"; exports read "every order"', async () => {
      const file = `${box.root}/big.bin`
      writeFileSync(file, Buffer.alloc(300 * 1024, 7))
      const up = await tty(`files upload ${file}`)
      expect(up.code, up.stdout).toBe(0)
      const screen = stripAnsi(up.stdout)
      expect(screen).toContain('300.0 KiB of 300.0 KiB')
      const bar = screen.split('\n').find((l) => l.includes('Uploading'))!
      expect(bar).not.toMatch(/bytes|307200/)
      writeFileSync(`${box.root}/one.jsonl`, '{"name":"api.call","external_customer_id":"u1"}\n')
      const ingest = await till(['events', 'ingest', `${box.root}/one.jsonl`])
      expect(ingest.code, ingest.stderr).toBe(0)
      expect(ingest.stderr).toMatch(/Read 1 line: 1 inserted, 0 duplicates, 0 rejected; 1 request in /)
      for (const noun of ['order', 'customer', 'subscription']) {
        const help = await till([`${noun}s`, 'export', '--help'])
        expect(help.stdout).toContain(`Export every ${noun} as CSV`)
      }
    })
  })
})
