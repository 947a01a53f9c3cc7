// A checkout as its buyer sees it, by its client secret and without a token (till checkouts client get |
// update), against the emulator in the contract mode: the public fields only, the buyer's changes, and
// the service's refusal of an unknown discount code.
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {allowRefusals} from '../helpers/contract.js'
import {envVars, expectNoToken, sandbox, type CliResult, type Sandbox} from '../helpers/cli.js'
import {api, startEmulator, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'

describe('till checkouts client', () => {
  let emulator: Emulator
  let env: EnvHandle
  let box: Sandbox
  let checkout: Json
  const outputs: string[] = []

  /** Runs till with no organization token at all: these commands need none. */
  const till = async (args: string[], withToken = false): Promise<CliResult> => {
    const vars = withToken ? envVars(env) : {TILL_API_URL: env.url}
    const r = await runInProcess(args, {env: box.env(vars)})
    outputs.push(r.stdout, r.stderr)
    return r
  }
  const ok = (r: CliResult) => expect(r.code, `exit ${r.code}\n${r.stderr}\n${r.stdout}`).toBe(0)

  beforeAll(async () => {
    emulator = await startEmulator()
    env = emulator.production
    const product = await api(env, 'POST', '/products/', {body: {name: 'Client view', prices: [{amount_type: 'fixed', price_amount: 1500}]}})
    expect(product.status, product.text).toBe(201)
    const created = await api(env, 'POST', '/checkouts/', {body: {products: [product.body.id], metadata: {internal: 'yes'}}})
    expect(created.status, created.text).toBe(201)
    checkout = created.body
  })
  afterAll(async () => {
    await emulator?.stop()
    for (const text of outputs) expectNoToken(text, env.token)
  })
  beforeEach(() => {
    box = sandbox()
  })
  afterEach(() => box.cleanup())

  it('get: the public fields of the checkout, without a token (no metadata)', async () => {
    const r = await till(['checkouts', 'client', 'get', checkout.client_secret, '--json'])
    ok(r)
    const shown = JSON.parse(r.stdout)
    expect(shown).toMatchObject({id: checkout.id, status: 'open', total_amount: 1500, client_secret: checkout.client_secret})
    expect(shown).not.toHaveProperty('metadata')
    expect((await till(['checkouts', 'client', 'get', 'polar_c_unknown'])).code).toBe(3)
  })

  it("update: the buyer's details are set; nothing to update is a usage error; an unknown discount code is refused", async () => {
    const r = await till([
      'checkouts',
      'client',
      'update',
      checkout.client_secret,
      '--customer-email',
      'buyer@example.com',
      '--customer-name',
      'Bea Buyer',
      '--json',
    ])
    ok(r)
    expect(JSON.parse(r.stdout)).toMatchObject({id: checkout.id, customer_email: 'buyer@example.com', customer_name: 'Bea Buyer'})
    const seen = (await api(env, 'GET', `/checkouts/${checkout.id}`)).body
    expect(seen).toMatchObject({customer_email: 'buyer@example.com', customer_name: 'Bea Buyer', metadata: {internal: 'yes'}})
    const nothing = await till(['checkouts', 'client', 'update', checkout.client_secret])
    expect(nothing.code).toBe(2)
    expect(nothing.stderr).toContain('nothing to update')
    allowRefusals()
    const code = await till(['checkouts', 'client', 'update', checkout.client_secret, '--discount-code', 'NO-SUCH-CODE'])
    expect(code.code).toBe(2)
    expect(code.stderr).toContain('discount_code')
  })
})
