// The portal's benefit grants, downloadables and license-key rotation against the emulator, in-process and
// in the contract mode: get a grant; update one as the service allows (the type must be the benefit's, only
// an account the customer connected); the files a downloadables benefit gives once granted; rotating a key
// (the old string stops validating, a revoked key cannot be rotated).
import {writeFileSync} from 'node:fs'

import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {allowRefusals} from '../helpers/contract.js'
import {expectNoToken, sandbox, type CliResult, type Sandbox} from '../helpers/cli.js'
import {api, control, listAll, startEmulator, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {recordingTill} from '../helpers/in-process.js'
import {expectShape} from '../contract/harness.js'

describe('till portal: benefit grants, downloadables, license-key rotation', () => {
  let emulator: Emulator
  let env: EnvHandle
  let box: Sandbox
  let grants: Json[]
  let benefits: Json[]

  const {till, outputs} = recordingTill(
    () => box,
    () => env,
  )
  const as = (customerId: string, args: string[]) => till([...args, '--as-customer-id', customerId])
  const ok = (r: CliResult) => expect(r.code, `exit ${r.code}\n${r.stderr}\n${r.stdout}`).toBe(0)
  const json = (r: CliResult) => JSON.parse(r.stdout)
  const grantOf = (type: string) => {
    const ids = new Set(benefits.filter((b) => b.type === type).map((b) => b.id))
    const g = grants.find((x) => ids.has(x.benefit_id) && x.is_granted)
    expect(g, `a granted ${type} benefit`).toBeTruthy()
    return g!
  }

  beforeAll(async () => {
    emulator = await startEmulator({paymentDelay: '0s'})
    env = emulator.production
    grants = await listAll(env, '/benefit-grants/')
    benefits = await listAll(env, '/benefits/')
  })
  afterAll(async () => {
    await emulator?.stop()
    for (const text of outputs) expectNoToken(text, env.token)
  })
  beforeEach(() => {
    box = sandbox()
  })
  afterEach(() => box.cleanup())

  it("get: the customer's own grant with its benefit; another customer's is not found", async () => {
    const g = grantOf('license_keys')
    const r = await as(g.customer_id, ['portal', 'benefit-grants', 'get', g.id, '--json'])
    ok(r)
    expect(json(r)).toMatchObject({id: g.id, customer_id: g.customer_id, benefit_id: g.benefit_id, benefit: {type: 'license_keys'}})
    const other = grants.find((x) => x.customer_id !== g.customer_id)!
    expect((await as(other.customer_id, ['portal', 'benefit-grants', 'get', g.id])).code).toBe(3)
  })

  it('update: a GitHub grant is disconnected (confirmed); an account the customer did not connect is refused', async () => {
    const g = grantOf('github_repository')
    const refused = await as(g.customer_id, ['portal', 'benefit-grants', 'update', g.id, '--disconnect'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('--yes')
    const r = await as(g.customer_id, ['portal', 'benefit-grants', 'update', g.id, '--disconnect', '--yes', '--json'])
    ok(r)
    expect(json(r)).toMatchObject({id: g.id, properties: {account_id: null}})
    allowRefusals()
    const unknown = await as(g.customer_id, ['portal', 'benefit-grants', 'update', g.id, '--account-id', '999', '--yes'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('OAuth account does not exist.')
    // a license-key grant takes no account: said before anything is sent
    const keys = grantOf('license_keys')
    const wrong = await as(keys.customer_id, ['portal', 'benefit-grants', 'update', keys.id, '--account-id', '1', '--yes'])
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toContain("--account-id and --disconnect are for Discord and GitHub grants; this grant's benefit is license_keys")
  })

  it('downloadables: the files of a downloadables benefit once it is granted, with a download link', async () => {
    const path = `${box.root}/guide.pdf`
    writeFileSync(path, Buffer.alloc(3000, 1))
    const file = json(await till(['files', 'upload', path, '--json']))
    const benefit = json(
      await till(['benefits', 'create', '--type', 'downloadables', '--description', 'The guide', '--properties', JSON.stringify({files: [file.id]}), '--json']),
    )
    const s = (await listAll(env, '/subscriptions/', 'status=active')).find((x) => x.product_id)!
    const product = (await api(env, 'GET', `/products/${s.product_id}`)).body
    const attached = await api(env, 'POST', `/products/${product.id}/benefits`, {body: {benefits: [...product.benefits.map((b: Json) => b.id), benefit.id]}})
    expect(attached.status, attached.text).toBe(200)
    expect(json(await as(s.customer_id, ['portal', 'downloadables', 'list', '-o', 'json']))).toEqual([])
    // the renewal's payment grants the product's new benefit
    const renewed = await control(env, 'POST', `subscriptions/${s.id}/renew`)
    expect(renewed.status, renewed.text).toBe(200)
    // the grant follows the renewal's payment, which the emulator settles a moment later
    let r = await as(s.customer_id, ['portal', 'downloadables', 'list', '-o', 'json'])
    for (let tries = 0; r.code === 0 && json(r).length === 0 && tries < 50; tries++) {
      await new Promise((done) => setTimeout(done, 100))
      r = await as(s.customer_id, ['portal', 'downloadables', 'list', '-o', 'json'])
    }
    ok(r)
    const [one, ...rest] = json(r)
    expect(rest).toEqual([])
    expect(one).toMatchObject({
      benefit_id: benefit.id,
      file: {id: file.id, name: 'guide.pdf', size: 3000, download: {url: expect.stringContaining('/downloadables/')}},
    })
    // exactly the keys the SDK 1.0.1 types (the file as FileDownload, its download link as S3DownloadURL)
    expectShape('2026-10', 'DownloadableRead', one)
    const filtered = await as(s.customer_id, ['portal', 'downloadables', 'list', '--benefit', crypto.randomUUID(), '-o', 'json'])
    expect(json(filtered)).toEqual([])
  })

  it('license-keys rotate: a new key string (piped: the key alone); the old one no longer validates', async () => {
    const keys = await listAll(env, '/license-keys/')
    const key = keys.find((k) => k.status === 'granted')!
    const org = key.organization_id
    const refused = await as(key.customer_id, ['portal', 'license-keys', 'rotate', key.id])
    expect(refused.code).toBe(2)
    const r = await as(key.customer_id, ['portal', 'license-keys', 'rotate', key.id, '--yes'])
    ok(r)
    const fresh = r.stdout.trim()
    expect(fresh).not.toBe(key.key)
    expect(fresh.split('-')[0]).toBe(key.key.split('-')[0])
    const shown = json(await as(key.customer_id, ['portal', 'license-keys', 'get', key.id, '--json']))
    expect(shown).toMatchObject({id: key.id, key: fresh, status: 'granted', usage: key.usage, limit_activations: key.limit_activations})
    const old = await till(['portal', 'license-keys', 'validate', key.key, '--organization-id', org])
    expect(old.code).toBe(3)
    ok(await till(['portal', 'license-keys', 'validate', fresh, '--organization-id', org]))

    const other = keys.find((k) => k.status === 'granted' && k.id !== key.id)!
    const revoked = await api(env, 'PATCH', `/license-keys/${other.id}`, {body: {status: 'revoked'}})
    expect(revoked.status, revoked.text).toBe(200)
    const no = await as(other.customer_id, ['portal', 'license-keys', 'rotate', other.id, '--yes'])
    expect(no.code).toBe(1)
    expect(no.stderr).toContain(`Error: license key ${other.id} cannot be rotated (it is revoked); only granted or disabled keys can`)
    expect(json(await as(other.customer_id, ['portal', 'license-keys', 'get', other.id, '--json'])).key).toBe(other.key)
  })
})
