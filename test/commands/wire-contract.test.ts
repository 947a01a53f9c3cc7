// Requests the wire types caught: what these commands send now keeps to the service's
// published OpenAPI document. The emulator runs in contract mode, so a body, parameter or header the
// document refuses is answered 422 and logged; each test also reads the log for request violations.
import {existsSync, mkdtempSync, readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {envVars, sandbox, type Sandbox} from '../helpers/cli.js'
import {ROOT, startEmulator, type Emulator} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'

const SPEC = join(ROOT, 'contract', '2026-10.openapi.json')
const LOG = join(mkdtempSync(join(tmpdir(), 'till-wire-')), 'violations.jsonl')

let emu: Emulator
let box: Sandbox
let env: NodeJS.ProcessEnv
const saved = {contract: process.env.TILL_CONTRACT, log: process.env.TILL_CONTRACT_LOG}

beforeAll(async () => {
  // The spawned emulator reads both from its environment.
  process.env.TILL_CONTRACT = SPEC
  process.env.TILL_CONTRACT_LOG = LOG
  emu = await startEmulator({orders: 5})
  box = sandbox()
  env = box.env(envVars(emu.sandbox))
})

afterAll(async () => {
  await emu?.stop()
  box?.cleanup()
  process.env.TILL_CONTRACT = saved.contract
  process.env.TILL_CONTRACT_LOG = saved.log
  if (saved.contract === undefined) delete process.env.TILL_CONTRACT
  if (saved.log === undefined) delete process.env.TILL_CONTRACT_LOG
})

const till = (args: string[]) => runInProcess(args, {env})

/** The request violations logged so far, as `METHOD path: message`. */
const requestViolations = () =>
  existsSync(LOG)
    ? readFileSync(LOG, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as {side: string; method: string; path: string; message: string})
        .filter((v) => v.side === 'request')
        .map((v) => `${v.method} ${v.path}: ${v.message}`)
    : []

describe('requests keep to the published document', () => {
  it('benefits update without properties names the benefit type (every Benefit*Update requires it)', async () => {
    const created = await till(['benefits', 'create', '--type', 'custom', '--description', 'Priority support', '--json'])
    expect(created.code, created.stderr).toBe(0)
    const id = JSON.parse(created.stdout).id
    const updated = await till(['benefits', 'update', id, '--description', 'Faster support', '--json'])
    expect(updated.code, updated.stderr).toBe(0)
    expect(JSON.parse(updated.stdout)).toMatchObject({id, type: 'custom', description: 'Faster support'})
    expect(requestViolations()).toEqual([])
  })

  it('benefits update of a Discord benefit: --visibility refused (its update takes none), properties sent without the derived guild_id', async () => {
    const listed = await till(['benefits', 'list', '--type', 'discord', '--all', '-o', 'json'])
    expect(listed.code, listed.stderr).toBe(0)
    const discord = JSON.parse(listed.stdout)[0]
    expect(discord.properties.guild_id).toEqual(expect.any(String))
    const hidden = await till(['benefits', 'update', discord.id, '--visibility', 'private'])
    expect(hidden.code).toBe(2)
    expect(hidden.stderr).toContain('--visibility: the service cannot change the visibility of a discord benefit')
    const kick = await till(['benefits', 'update', discord.id, '--properties', '{"kick_member": true}', '--json'])
    expect(kick.code, kick.stderr).toBe(0)
    expect(JSON.parse(kick.stdout).properties).toMatchObject({guild_id: discord.properties.guild_id, role_id: discord.properties.role_id, kick_member: true})
    expect(requestViolations()).toEqual([])
  })

  it('checkout-links create sends payment_processor "stripe"', async () => {
    const product = await till(['products', 'create', '--name', 'Wire plan', '--price', '9', '--json'])
    expect(product.code, product.stderr).toBe(0)
    const link = await till(['checkout-links', 'create', '--product', JSON.parse(product.stdout).id, '--label', 'Wire', '--json'])
    expect(link.code, link.stderr).toBe(0)
    expect(JSON.parse(link.stdout)).toMatchObject({label: 'Wire', payment_processor: 'stripe'})
    expect(requestViolations()).toEqual([])
  })

  it('custom-fields update of a select field keeps its options when only the label changes', async () => {
    const created = await till([
      'custom-fields',
      'create',
      '--type',
      'select',
      '--slug',
      'wire-tier',
      '--name',
      'Tier',
      '--option',
      'a=Alpha',
      '--option',
      'b=Beta',
      '--json',
    ])
    expect(created.code, created.stderr).toBe(0)
    const id = JSON.parse(created.stdout).id
    const updated = await till(['custom-fields', 'update', id, '--label', 'Your tier', '--json'])
    expect(updated.code, updated.stderr).toBe(0)
    expect(JSON.parse(updated.stdout).properties).toMatchObject({
      form_label: 'Your tier',
      options: [
        {value: 'a', label: 'Alpha'},
        {value: 'b', label: 'Beta'},
      ],
    })
    expect(requestViolations()).toEqual([])
  })

  it('orders list --created-after/--created-before with bare dates sends date-times (the start of the day, UTC)', async () => {
    const all = await till(['orders', 'list', '--all', '-o', 'json'])
    expect(all.code, all.stderr).toBe(0)
    const some = await till(['orders', 'list', '--created-after', '2000-01-01', '--created-before', '2999-01-01', '--all', '-o', 'json'])
    expect(some.code, some.stderr).toBe(0)
    expect(JSON.parse(some.stdout)).toHaveLength(JSON.parse(all.stdout).length)
    const none = await till(['orders', 'list', '--created-after', '2999-01-01', '-o', 'json'])
    expect(none.code, none.stderr).toBe(0)
    expect(JSON.parse(none.stdout)).toEqual([])
    expect(requestViolations()).toEqual([])
  })

  it('customers, orders and subscriptions export ask for text/csv and print the CSV', async () => {
    for (const noun of ['customers', 'orders', 'subscriptions']) {
      const r = await till([noun, 'export'])
      expect(r.code, `${noun}: ${r.stderr}`).toBe(0)
      expect(r.stdout.split('\n')[0], noun).toMatch(/,/)
      expect(r.stdout.trimStart().startsWith('{'), noun).toBe(false)
    }
    expect(requestViolations()).toEqual([])
  })
})
