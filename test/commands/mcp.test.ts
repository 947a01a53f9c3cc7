// `till mcp`: the MCP server over stdio, driven by the SDK's own client (Client and StdioClientTransport
// spawning `node bin/run.js mcp`) against the emulator, on profiles added with `till profiles add` (the
// token where till keeps it, none in the server's environment): its tools, a read, a write refused on a
// production profile, a refund that acts only once its dry run is confirmed, the emulator's clock.
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'

import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {BIN, expectNoToken, sandbox, type Sandbox} from '../helpers/cli.js'
import {api, ROOT, startEmulator, unknownId, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'
import {scaled} from '../helpers/machine.js'

interface Result {
  isError?: boolean
  content: Array<{type: string; text?: string}>
  structuredContent?: Json
}

describe('till mcp', () => {
  let emulator: Emulator
  let box: Sandbox
  const clients: Client[] = []

  const addProfile = async (name: string, environment: string, handle: EnvHandle, ...flags: string[]) => {
    const args = ['profiles', 'add', name, '--environment', environment, '--url', handle.url, '--token-stdin', '--insecure-storage', ...flags]
    const r = await runInProcess(args, {env: box.env(), input: `${handle.token}\n`})
    expect(r.code, r.stderr).toBe(0)
  }

  /** An SDK client connected to `till mcp` run as a process with these arguments. */
  const connect = async (...args: string[]): Promise<Client> => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', ...args],
      cwd: ROOT,
      env: box.env() as Record<string, string>,
      stderr: 'pipe',
    })
    const client = new Client({name: 'till-test', version: '1.0.0'})
    await client.connect(transport)
    clients.push(client)
    return client
  }
  const call = async (client: Client, name: string, args: Json = {}): Promise<Result> =>
    (await client.callTool({name, arguments: args}, undefined, {timeout: scaled(60_000)})) as Result

  beforeAll(async () => {
    emulator = await startEmulator()
    box = sandbox()
    await addProfile('emu', 'local', emulator.production)
    await addProfile('live', 'production', emulator.sandbox)
  }, scaled(60_000))

  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.close()))
    await emulator?.stop()
    box?.cleanup()
  })

  it('lists a tool per operation, annotated, with the emulator control tools on a local profile', async () => {
    const {tools} = await (await connect('-p', 'emu')).listTools()
    const named = (name: string) => tools.find((t) => t.name === name)
    const list = named('products_list')!
    expect(list.annotations).toMatchObject({readOnlyHint: true, idempotentHint: true, destructiveHint: false})
    expect(Object.keys(list.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['limit', 'page', 'is_archived']))
    const refund = named('refunds_create')!
    expect(refund.annotations).toMatchObject({readOnlyHint: false, destructiveHint: true, idempotentHint: false})
    expect(refund.inputSchema.required).toContain('body')
    expect(Object.keys(refund.inputSchema.properties ?? {})).toContain('confirm')
    // the body's schema names the document's components, carried in the tool's own $defs
    expect(JSON.stringify(refund.inputSchema)).toContain('#/$defs/RefundCreate')
    expect((refund.inputSchema as Json).$defs.RefundCreate).toBeDefined()
    expect(named('customers_delete')!.annotations).toMatchObject({destructiveHint: true, idempotentHint: true})
    expect(named('emulator_clock_advance')).toBeDefined()
    // the Customer Portal's operations act for a customer, not the organization: none is a tool
    expect(tools.some((t) => t.name.startsWith('customer_portal'))).toBe(false)
    expect(tools.length).toBeGreaterThan(100)
  })

  it('answers a read with the page and its pagination, and an unknown id with the meaning of exit code 3', async () => {
    const client = await connect('-p', 'emu')
    const page = await call(client, 'products_list', {limit: 2})
    expect(page.isError, page.content[0]?.text).toBeFalsy()
    const expected = (await api(emulator.production, 'GET', '/products/?limit=2')).body
    expect(page.structuredContent!.items.map((p: Json) => p.id)).toEqual(expected.items.map((p: Json) => p.id))
    expect(page.structuredContent!.pagination).toEqual(expected.pagination)
    const missing = await call(client, 'products_get', {id: unknownId()})
    expect(missing.isError).toBe(true)
    expect(missing.structuredContent!.error).toMatchObject({exit_code: 3, meaning: 'not found'})
    expect(missing.content[0]!.text).toMatch(/^Error \(exit code 3: not found\): not found/)
  })

  it('refuses a write on a production profile unless started with --allow-production-writes', async () => {
    const name = `mcp refused ${unknownId().slice(0, 8)}`
    const body = {name, recurring_interval: null, prices: [{amount_type: 'fixed', price_amount: 1000, price_currency: 'usd'}]}
    const refused = await call(await connect('-p', 'live'), 'products_create', {body})
    expect(refused.isError).toBe(true)
    expect(refused.structuredContent!.error).toMatchObject({exit_code: 2})
    expect(refused.content[0]!.text).toMatch(/profile "live" is production.*--allow-production-writes/)
    const listed = async () => (await api(emulator.sandbox, 'GET', `/products/?query=${encodeURIComponent(name)}`)).body.items
    expect(await listed()).toHaveLength(0)
    // reads still answer there, and the control tools are no tools off a local profile
    const client = await connect('-p', 'live')
    expect((await call(client, 'products_list', {limit: 1})).isError).toBeFalsy()
    expect((await client.listTools()).tools.some((t) => t.name.startsWith('emulator_'))).toBe(false)

    const allowed = await call(await connect('-p', 'live', '--allow-production-writes'), 'products_create', {body})
    expect(allowed.isError, allowed.content[0]?.text).toBeFalsy()
    expect(allowed.structuredContent!.name).toBe(name)
    expect(await listed()).toHaveLength(1)
  })

  it('answers a refund with a dry run, and refunds only when called again with its confirm token', async () => {
    const orders = (await api(emulator.production, 'GET', '/orders/?status=paid&limit=100')).body.items as Json[]
    const order = orders.find((o) => o.total_amount >= 200 && o.refunded_amount === 0)
    expect(order, 'a paid order of the seed, not refunded').toBeDefined()
    const refunds = async () => (await api(emulator.production, 'GET', `/refunds/?order_id=${order.id}`)).body.items as Json[]
    const client = await connect('-p', 'emu')
    const args = {body: {order_id: order.id, reason: 'customer_request', amount: 100}}

    const dry = await call(client, 'refunds_create', args)
    expect(dry.isError, dry.content[0]?.text).toBeFalsy()
    expect(dry.structuredContent).toMatchObject({dry_run: true, would: {method: 'POST', path: '/v1/refunds/'}})
    const token = dry.structuredContent!.confirm as string
    expect(dry.content[0]!.text).toContain(`confirm: "${token}"`)
    expect(await refunds()).toHaveLength(0)

    // a token confirms the arguments it was given for, and no others
    const other = await call(client, 'refunds_create', {body: {...args.body, amount: 150}, confirm: token})
    expect(other.isError).toBe(true)
    expect(other.structuredContent!.error).toMatchObject({exit_code: 2})
    expect(await refunds()).toHaveLength(0)

    const done = await call(client, 'refunds_create', {...args, confirm: token})
    expect(done.isError, done.content[0]?.text).toBeFalsy()
    expect(done.structuredContent).toMatchObject({order_id: order.id, amount: 100})
    expect((await refunds()).map((r) => r.id)).toEqual([done.structuredContent!.id])
  })

  it("moves the emulator's clock forward", async () => {
    const client = await connect('-p', 'emu')
    const before = Date.parse((await call(client, 'emulator_clock')).structuredContent!.now)
    const advanced = await call(client, 'emulator_clock_advance', {duration: '3d'})
    expect(advanced.isError, advanced.content[0]?.text).toBeFalsy()
    const after = Date.parse((await call(client, 'emulator_clock')).structuredContent!.now)
    expect(after - before).toBeGreaterThanOrEqual(3 * 86_400_000)
    const wrong = await call(client, 'emulator_clock_advance', {duration: 'soon'})
    expect(wrong.isError).toBe(true)
    expect(wrong.structuredContent!.error.exit_code).toBe(2)
  })

  it("paces its requests through the profile's budget, shared with the commands of that profile", async () => {
    await addProfile('paced', 'local', emulator.production, '--rate-limit', '2/8s', '--no-verify')
    for (let i = 0; i < 2; i++) {
      const r = await runInProcess(['-p', 'paced', 'api', 'GET', '/products/'], {env: box.env()})
      expect(r.code, r.stderr).toBe(0)
    }
    // the two requests of the commands hold the budget: the server's read waits for the window to pass
    const client = await connect('-p', 'paced')
    const started = Date.now()
    const page = await call(client, 'products_list', {limit: 1})
    expect(page.isError, page.content[0]?.text).toBeFalsy()
    expect(Date.now() - started).toBeGreaterThanOrEqual(3000)
  })

  it("refuses a token given in its environment (an agent's configuration), naming the fix, without showing it", async () => {
    const token = emulator.production.token
    const r = await runInProcess(['mcp', '-p', 'emu'], {env: box.env({TILL_TOKEN: token})})
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/TILL_TOKEN is set/)
    expect(r.stderr).toMatch(/Hint: remove TILL_TOKEN from the MCP client's configuration/)
    expectNoToken(`${r.stdout}${r.stderr}`, token)
  })

  it('names in its help the agent skill that the package ships, and the server', async () => {
    const help = await runInProcess(['mcp', '--help'], {env: box.env()})
    expect(help.code, help.stderr).toBe(0)
    expect(help.stdout).toContain('skills/till/SKILL.md')
    expect(help.stdout).toContain('--allow-production-writes')
    const skill = readFileSync(join(ROOT, 'skills', 'till', 'SKILL.md'), 'utf8')
    expect(skill).toMatch(/^---\nname: till\ndescription: .+\n---\n/)
    expect(skill).toContain('till mcp')
    for (const link of skill.matchAll(/\]\((references\/[\w-]+\.md)\)/g)) expect(existsSync(join(ROOT, 'skills', 'till', link[1]!))).toBe(true)
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).files).toContain('skills')
  })
})
