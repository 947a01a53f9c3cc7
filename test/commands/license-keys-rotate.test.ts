// `till license-keys rotate`: a new key string for the same license key (SDK 1.0.1's POST
// /v1/license-keys/{id}/rotate, newer than the 2026-10 document: the contract mode checks it against the
// operation added for it in src/emulator/core/contract-newer.ts). The old key stops validating at once;
// status, usage, limits and activations stay. Confirmed, since the customer's key stops working.
import {afterAll, beforeAll, expect, it} from 'vitest'

import {envVars, sandbox, type CliResult, type Sandbox} from '../helpers/cli.js'
import {api, listAll, startEmulator, type Emulator, type Json} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'

let emulator: Emulator
let box: Sandbox
const till = (args: string[]) => runInProcess(args, {env: box.env(envVars(emulator.production))})
const ok = (r: CliResult) => expect(r.code, `exit ${r.code}\n${r.stderr}`).toBe(0)
const validate = (key: string) => api(emulator.production, 'POST', '/license-keys/validate', {body: {key, organization_id: emulator.production.organizationId}})

beforeAll(async () => {
  emulator = await startEmulator()
  box = sandbox()
})
afterAll(async () => {
  await emulator?.stop()
  box?.cleanup()
})

it('gives the key a new string: the old one stops validating, the rest of the key stays', async () => {
  const keys = await listAll(emulator.production, '/license-keys/', 'status=granted')
  const before: Json = keys.find((k) => (k.limit_activations ?? 1) >= 1)
  expect(before).toBeTruthy()
  const activated = await api(emulator.production, 'POST', '/license-keys/activate', {
    body: {key: before.key, organization_id: emulator.production.organizationId, label: 'laptop'},
  })
  expect(activated.status).toBe(200)
  expect((await validate(before.key)).status).toBe(200)

  const unconfirmed = await till(['license-keys', 'rotate', before.id])
  expect(unconfirmed.code).toBe(2)
  expect(unconfirmed.stderr).toMatch(/--yes/)
  expect((await validate(before.key)).status).toBe(200)

  // --dry-run names the key and changes nothing
  const dry = await till(['license-keys', 'rotate', before.id, '--dry-run'])
  ok(dry)
  expect(dry.stdout).toBe(
    `Dry run: would rotate license key ${before.display_key} of ${before.customer.email}: the current key stops working at once (local, profile local); nothing was changed.\n`,
  )
  expect((await validate(before.key)).status).toBe(200)

  // piped without a format: the new key alone
  const rotated = await till(['license-keys', 'rotate', before.id, '--yes'])
  ok(rotated)
  const key = rotated.stdout.trim()
  expect(rotated.stdout).toBe(`${key}\n`)
  expect(key).not.toBe(before.key)
  const prefix = before.key.split('-')[0]
  expect(key.startsWith(`${prefix}-`)).toBe(true)

  expect((await validate(before.key)).status).toBe(404)
  expect((await validate(key)).status).toBe(200)
  const after = (await api(emulator.production, 'GET', `/license-keys/${before.id}`)).body
  expect(after).toMatchObject({id: before.id, key, status: 'granted', customer_id: before.customer_id, limit_activations: before.limit_activations})
  expect(after.display_key.endsWith(key.slice(-6))).toBe(true)
  expect(after.activations.map((a: Json) => a.label)).toEqual(['laptop'])

  const json = await till(['license-keys', 'rotate', before.id, '--yes', '--json'])
  ok(json)
  expect(JSON.parse(json.stdout)).toMatchObject({id: before.id, status: 'granted'})
  expect(JSON.parse(json.stdout).key).not.toBe(key)
})

it('a revoked key cannot be rotated (RotateNotPermitted, one line); an unknown one is not found', async () => {
  const [key] = await listAll(emulator.production, '/license-keys/', 'status=granted')
  expect((await api(emulator.production, 'PATCH', `/license-keys/${key.id}`, {body: {status: 'revoked'}})).status).toBe(200)
  const refused = await till(['license-keys', 'rotate', key.id, '--yes'])
  expect(refused.code).toBe(1)
  expect(refused.stderr.split('\n')[0]).toBe(`Error: license key ${key.id} cannot be rotated (it is revoked); only granted or disabled keys can`)
  expect((await api(emulator.production, 'GET', `/license-keys/${key.id}`)).body.key).toBe(key.key)

  const missing = crypto.randomUUID()
  const unknown = await till(['license-keys', 'rotate', missing, '--yes'])
  expect(unknown.code).toBe(3)
  expect(unknown.stderr.split('\n')[0]).toBe(`Error: not found: there is no license key ${missing} in local (profile local)`)
})
