// What still trips people who know gh and the Stripe CLI: gh's `--json FIELDS`, `-L` and `--limit`
// over a page, flag typos, `till login` and friends; `till api` as gh api; a sign-in
// that changes the active profile says so; emulators on other data folders; invoices
// that exist are "already done". In-process runs against one emulator.
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {type CliResult, closedPort, envVars, linesOf, sandbox, type Sandbox} from '../helpers/cli.js'
import {listAll, startEmulator, type Emulator, type Json} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'
import {scaled} from '../helpers/machine.js'

describe('habits from gh and the Stripe CLI', {timeout: scaled(60_000)}, () => {
  let emulator: Emulator
  let box: Sandbox
  const vars = (extra: Record<string, string | undefined> = {}) => box.env({...envVars(emulator.production), TILL_ENV: 'local', ...extra})
  const till = (args: string[], extra: Record<string, string | undefined> = {}, input?: string): Promise<CliResult> =>
    runInProcess(args, {env: vars(extra), input})

  beforeAll(async () => {
    emulator = await startEmulator({invoiceDelay: '0s'})
    box = sandbox()
  })
  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
  })

  describe('gh and Stripe habits', () => {
    it('--json id,status prints JSON with only those fields, as gh does (and --json=FIELDS, and after the id of a get)', async () => {
      const r = await till(['orders', 'list', '--json', 'id,status', '--limit', '3'])
      expect(r.code, r.stderr).toBe(0)
      const items = JSON.parse(r.stdout) as Json[]
      expect(items).toHaveLength(3)
      for (const item of items) expect(Object.keys(item)).toEqual(['id', 'status'])
      const one = await till(['orders', 'get', items[0].id, '--json=id,customer.email'])
      expect(one.code, one.stderr).toBe(0)
      expect(JSON.parse(one.stdout)).toEqual({id: items[0].id, customer: {email: expect.stringContaining('@')}})
      const before = await till(['orders', 'get', '--json', 'id,status', items[0].id])
      expect(before.code, before.stderr).toBe(0)
      expect(JSON.parse(before.stdout)).toEqual({id: items[0].id, status: items[0].status})
      // a single field after --json on a list (no argument left for it) is a field too
      const single = await till(['products', 'list', '--json', 'name', '--limit', '2'])
      expect(single.code, single.stderr).toBe(0)
      for (const item of JSON.parse(single.stdout) as Json[]) expect(Object.keys(item)).toEqual(['name'])
      // --json alone keeps every field
      const whole = await till(['orders', 'list', '--json', '--limit', '1'])
      expect(Object.keys((JSON.parse(whole.stdout) as Json[])[0]).length).toBeGreaterThan(10)
    })

    it('--json FIELDS with --columns, or on a command that prints its own JSON, is one clear line, exit 2', async () => {
      const both = await till(['orders', 'list', '--json', 'id', '--columns', 'status'])
      expect(both.code).toBe(2)
      expect(both.stderr).toBe('Error: --json FIELDS and --columns both choose the fields\nHint: give the fields once: --json id,status\n')
      const own = await till(['events', 'ingest', '--json', 'id,status'])
      expect(own.code).toBe(2)
      expect(own.stderr).toMatch(/^Error: this command prints its own JSON: --json takes no list of fields here\n/)
    })

    it('a mistyped flag gets a did-you-mean', async () => {
      const r = await till(['orders', 'list', '--stauts', 'paid'])
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(/^Error: Nonexistent flag: --stauts; did you mean --status\?\n/)
      const global = await till(['orders', 'list', '--profle', 'x'])
      expect(global.stderr).toContain('did you mean --profile?')
      const far = await till(['orders', 'list', '--zzzzzzzz'])
      expect(far.stderr).not.toContain('did you mean')
    })

    it('--limit over 100 reads that many items 100 to a page; -L is --limit', async () => {
      const r = await till(['orders', 'list', '--limit', '130', '-o', 'jsonl'])
      expect(r.code, r.stderr).toBe(0)
      const all = await listAll(emulator.production, '/orders/')
      expect(linesOf(r.stdout)).toHaveLength(Math.min(130, all.length))
      const short = await till(['orders', 'list', '-L', '3', '-o', 'jsonl'])
      expect(short.code, short.stderr).toBe(0)
      expect(linesOf(short.stdout)).toHaveLength(3)
      const paged = await till(['orders', 'list', '--limit', '500', '--page', '2'])
      expect(paged.code).toBe(2)
      expect(paged.stderr).toContain('Error: --limit 500 reads several pages, so it cannot be given with --page')
    })

    it('till login, logout and whoami run the auth commands; version prints the version; config and logs name what to use', async () => {
      const whoami = await till(['whoami', '--json'])
      expect(whoami.code, whoami.stderr).toBe(0)
      expect(whoami.stderr).toBe('(till whoami is till auth status)\n')
      expect(JSON.parse(whoami.stdout)).toMatchObject({profile: 'local'})
      const login = await till(['login', '--environment', 'sandbox', '--url', emulator.sandbox.url, '--name', 'habit'], {}, `${emulator.sandbox.token}\n`)
      expect(login.stderr).toContain('(till login is till auth login)')
      const version = await till(['version'])
      expect(version.code, version.stderr).toBe(0)
      expect(version.stdout).toMatch(/^till\/\S+ \S+ node-v\S+ polar-api\/\d{4}-\d{2}\n$/)
      for (const [word, names] of [
        ['config', 'till profiles list'],
        ['logs', '--debug'],
      ] as const) {
        const r = await till([word, 'tail'])
        expect(r.code, word).toBe(2)
        expect(r.stderr).toMatch(new RegExp(`^Error: "${word}" is not a till command: .*${names.replace('-', '\\-')}`))
      }
    })
  })

  describe('till api as gh users expect', () => {
    it('the method defaults to GET, or POST when fields are given; -X names it', async () => {
      const get = await till(['api', '/organizations/'])
      expect(get.code, get.stderr).toBe(0)
      expect(JSON.parse(get.stdout).items).toHaveLength(1)
      const name = `Api default ${Date.now()}`
      const post = await till(['api', '/customers/', '-f', `email=api-default-${Date.now()}@example.com`, '-f', `name=${name}`])
      expect(post.code, post.stderr).toBe(0)
      expect(JSON.parse(post.stdout)).toMatchObject({name})
      const x = await till(['api', '-X', 'GET', `/customers/${JSON.parse(post.stdout).id}`])
      expect(x.code, x.stderr).toBe(0)
      expect(JSON.parse(x.stdout).name).toBe(name)
      const twice = await till(['api', 'GET', '/customers/', '-X', 'POST'])
      expect(twice.code).toBe(2)
      expect(twice.stderr).toContain('the method is given twice')
    })

    it('--limit works without --paginate (one page of that many), and with it (the first N items)', async () => {
      const page = await till(['api', '/orders/', '--limit', '2'])
      expect(page.code, page.stderr).toBe(0)
      expect(JSON.parse(page.stdout).items).toHaveLength(2)
      const first = await till(['api', '/orders/', '--paginate', '--limit', '3'])
      expect(first.code, first.stderr).toBe(0)
      expect(JSON.parse(first.stdout)).toHaveLength(3)
    })

    it('a path starting with /v1/ works (the base URL ends in /v1), and the emulator control routes are reachable', async () => {
      const r = await till(['api', '/v1/organizations/'])
      expect(r.code, r.stderr).toBe(0)
      expect(JSON.parse(r.stdout).items).toHaveLength(1)
      const control = await till(['api', '/_emulator/listeners'])
      expect(control.code, control.stderr).toBe(0)
      expect(JSON.parse(control.stdout)).toBeTypeOf('object')
    })
  })

  it('auth login says that the profile it signed in to replaced the active one, and how to go back', async () => {
    const fresh = sandbox()
    try {
      const env = fresh.env()
      const login = (name: string) =>
        runInProcess(['auth', 'login', '--environment', 'sandbox', '--url', emulator.sandbox.url, '--name', name, '--token-stdin'], {
          env,
          input: `${emulator.sandbox.token}\n`,
        })
      const first = await login('sandbox')
      expect(first.code, first.stderr).toBe(0)
      expect(first.stderr).toContain('Profile "sandbox" is now the active one, in place of "local" (go back with: till profiles use local).')
      const again = await login('sandbox')
      expect(again.stderr).toContain('Profile "sandbox" is the active one.')
    } finally {
      fresh.cleanup()
    }
  })

  describe('emulators on other data folders', () => {
    it('the local profile whose emulator was started with another data folder says so (not "till auth login"), exit 4', async () => {
      const fresh = sandbox()
      try {
        mkdirSync(fresh.configDir, {recursive: true})
        const local = {active: 'local', profiles: {local: {environment: 'local', base_url: emulator.production.url}}}
        writeFileSync(join(fresh.configDir, 'config.json'), JSON.stringify(local))
        const folder = join(fresh.dataDir, 'emulator')
        // nothing in the default data folder
        const none = await runInProcess(['orders', 'list'], {env: fresh.env()})
        expect(none.code).toBe(4)
        expect(none.stderr).toBe(
          `Error: the emulator at ${emulator.production.url} has no token in the default data folder (${folder}): it was started with another data folder (--data)\n` +
            'Hint: use the token it printed when it started (TILL_TOKEN=... till ...), or keep it as a profile with the "till profiles add" line it printed; or stop it and start it again without --data\n',
        )
        // the default folder's token, which this emulator does not take
        mkdirSync(folder, {recursive: true})
        writeFileSync(join(folder, 'credentials.json'), JSON.stringify({production: {token: `polar_oat_${'z'.repeat(43)}`}}))
        const other = await runInProcess(['orders', 'list'], {env: fresh.env()})
        expect(other.code).toBe(4)
        expect(other.stderr).toContain(`Error: the emulator at ${emulator.production.url} does not take the token of the default data folder (${folder})`)
        expect(other.stderr).not.toContain('till auth login')
      } finally {
        fresh.cleanup()
      }
    })

    it('a local profile with its own URL and nothing answering fails (exit 6) rather than answering from the default store', async () => {
      const fresh = sandbox()
      try {
        const port = await closedPort()
        const url = `http://127.0.0.1:${port}/v1`
        const add = await runInProcess(['profiles', 'add', 'big', '--environment', 'local', '--url', url, '--token-stdin', '--no-verify'], {
          env: fresh.env(),
          input: `${emulator.production.token}\n`,
        })
        expect(add.code, add.stderr).toBe(0)
        const r = await runInProcess(['-p', 'big', 'orders', 'list'], {env: fresh.env()})
        expect(r.stdout).toBe('')
        expect(r.stderr).not.toContain('using an emulator run inside this command')
        expect(r.stderr).toBe(
          `Error: nothing answers at ${url}, the URL of profile "big" (local)\nHint: start the emulator it is for, with the data folder it had: till emulator start --port ${port} --data FOLDER\n`,
        )
        expect(r.code).toBe(6)
      } finally {
        fresh.cleanup()
      }
    })
  })

  it('bulk invoice generation counts the orders that had their invoice as already done', async () => {
    const paid = (await listAll(emulator.production, '/orders/', 'status=paid')).filter((o: Json) => o.billing_address && o.billing_name)
    const had = paid.filter((o: Json) => o.is_invoice_generated).slice(0, 3)
    const fresh = paid.filter((o: Json) => !o.is_invoice_generated).slice(0, 2)
    expect(had).toHaveLength(3)
    expect(fresh).toHaveLength(2)
    const ids = [...had, ...fresh].map((o: Json) => o.id as string)
    const r = await till(['orders', 'invoice', 'generate', '-', '--envelope', '-o', 'jsonl'], {}, `${ids.join('\n')}\n`)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('5 ids: 2 ok, 3 already done, 0 failed.')
    const statuses = linesOf(r.stdout).map((l) => (JSON.parse(l) as {status: string}).status)
    expect(statuses).toEqual(['already done', 'already done', 'already done', 'ok', 'ok'])
    // one alone says so too
    const one = await till(['orders', 'invoice', 'generate', had[0].id])
    expect(one.code, one.stderr).toBe(0)
    expect(one.stderr).toBe(`Order ${had[0].id} already has its invoice; get it with: till orders invoice get ${had[0].id}\n`)
  })
})
