// `till sessions create` against the emulator (in-process; the terminal dialog as a process): by customer id, by external id and by the
// deprecated flag name; the token printed on stdout only (table, JSON, --token-only), never on stderr
// or in --debug traces; usage errors; the customer asked for on a terminal.
import {spawn} from 'node:child_process'

import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {api, listAll, ROOT, startEmulator, type Emulator, type Json} from '../helpers/emulator.js'
import {BIN, envVars, expectNoToken, linesOf, sandbox, sh, stripAnsi, type CliResult, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {scaled} from '../helpers/machine.js'

const CST = /polar_cst_[A-Za-z0-9]{43}/
const CST_LINE = /^polar_cst_[A-Za-z0-9]{43}\n$/

describe('till sessions create', () => {
  let emulator: Emulator
  let customers: Json[]
  /** A customer with an external id, and one without. */
  let withExternal: Json
  let plain: Json
  let box: Sandbox

  const till = (args: string[], extra: Record<string, string | undefined> = {}): Promise<CliResult> =>
    runInProcess(args, {env: box.env({...envVars(emulator.production), ...extra})})

  /** The customer a portal token belongs to, asked of the portal itself. */
  const portalCustomerId = async (token: string): Promise<string> => {
    const res = await api(emulator.production, 'GET', '/customer-portal/customers/me', {token})
    expect(res.status, res.text).toBe(200)
    return res.body.id
  }

  beforeAll(async () => {
    emulator = await startEmulator()
    customers = await listAll(emulator.production, '/customers/')
    withExternal = customers.find((c) => c.external_id)
    plain = customers.find((c) => !c.external_id)
    expect(withExternal && plain, 'seeded customers with and without an external id').toBeTruthy()
  })
  afterAll(async () => {
    await emulator?.stop()
  })
  beforeEach(() => {
    box = sandbox()
  })
  afterEach(() => box.cleanup())

  it('--customer-id -o table: the token, its expiry and the portal URL, and the token works on the portal', async () => {
    const before = Date.now()
    const r = await till(['sessions', 'create', '--customer', plain.id, '-o', 'table'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toBe('')
    const rows = Object.fromEntries(
      linesOf(r.stdout).map((l) => {
        const [key, ...rest] = l.split(/\s{2,}/)
        return [key!.toLowerCase(), rest.join('  ')]
      }),
    )
    const token = CST.exec(r.stdout)?.[0]
    expect(token).toBeDefined()
    const expires = Object.entries(rows).find(([k]) => k.startsWith('expires'))?.[1]
    expect(Date.parse(expires!)).toBeGreaterThan(before + 3_500_000)
    expect(r.stdout).toContain(`customer_session_token=${token}`)
    expect(r.stdout).toContain(plain.id)
    expect(await portalCustomerId(token!)).toBe(plain.id)
  })

  it('--json prints the whole session as the API returned it', async () => {
    const r = await till(['sessions', 'create', '--customer', plain.id, '--return-url', 'https://example.com/account', '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toBe('')
    const session = JSON.parse(r.stdout)
    expect(session.token).toMatch(CST)
    expect(session).toMatchObject({customer_id: plain.id, return_url: 'https://example.com/account'})
    expect(session.customer.id).toBe(plain.id)
    expect(session.customer_portal_url).toContain(session.token)
  })

  it('--external-customer --token-only prints the token alone, ready for TILL_CUSTOMER_TOKEN', async () => {
    const r = await till(['sessions', 'create', '--external-customer', withExternal.external_id, '--token-only'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(CST_LINE)
    expect(r.stderr).toBe('')
    expect(await portalCustomerId(r.stdout.trim())).toBe(withExternal.id)
  })

  it('the deprecated --customer-external-id still works, with a warning on stderr', async () => {
    const r = await till(['sessions', 'create', '--customer-external-id', withExternal.external_id, '--token-only'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(CST_LINE)
    expect(stripAnsi(r.stderr)).toMatch(/--customer-external-id.*deprecated/s)
    expect(stripAnsi(r.stderr)).toContain('use --external-customer.')
    expect(await portalCustomerId(r.stdout.trim())).toBe(withExternal.id)
  })

  it('the token never reaches stderr, not even in --debug traces', async () => {
    const r = await till(['sessions', 'create', '--customer', plain.id, '--json', '--debug'])
    expect(r.code, r.stderr).toBe(0)
    const token = JSON.parse(r.stdout).token as string
    expect(r.stderr).toContain('[debug]')
    expect(r.stderr).toContain('/customer-sessions/')
    expectNoToken(r.stderr, token, 'stderr')
  })

  it('usage errors (exit 2): no customer without a terminal, both ids; an unknown customer is not found (exit 3)', async () => {
    const none = await till(['sessions', 'create'])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('--customer or --external-customer')
    expect(none.stdout).toBe('')

    const both = await till(['sessions', 'create', '--customer', plain.id, '--external-customer', withExternal.external_id])
    expect(both.code).toBe(2)
    expect(both.stdout).toBe('')

    const unknown = await till(['sessions', 'create', '--external-customer', 'nobody-has-this-id'])
    expect(unknown.code).toBe(3)
    expect(unknown.stderr).toContain('no customer of this organization has the external id nobody-has-this-id (--external-customer)')
    expect(unknown.stdout).toBe('')
  })

  it('an organization token is needed: a customer token in TILL_TOKEN is refused (exit 4)', async () => {
    const token = (await till(['sessions', 'create', '--customer', plain.id, '--token-only'])).stdout.trim()
    const r = await till(['sessions', 'create', '--customer', plain.id], {TILL_TOKEN: token})
    expect(r.code).toBe(4)
    expect(r.stderr).toContain('Customer Portal')
    expect(r.stdout).toBe('')
  })

  it('on a terminal the customer is asked for (an external id is understood as one)', async () => {
    const env = box.env(envVars(emulator.production))
    const cmd = `${sh(process.execPath)} ${sh(BIN)} sessions create --token-only`
    const child = spawn('script', ['-qfec', cmd, '/dev/null'], {cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe']})
    let screen = ''
    let typed = false
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      screen += chunk
      if (!typed && /customer/i.test(stripAnsi(screen))) {
        typed = true
        setTimeout(() => child.stdin.write(`${withExternal.external_id}\r`), 150)
      }
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), scaled(20_000))
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
    clearTimeout(timer)
    expect(code, screen).toBe(0)
    const token = CST.exec(stripAnsi(screen))?.[0]
    expect(token, screen).toBeDefined()
    expect(await portalCustomerId(token!)).toBe(withExternal.id)
  })
})
