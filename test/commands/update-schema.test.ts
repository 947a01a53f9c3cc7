// A read-modify-write sends only what the update schema defines: against a service newer than
// the document, whose answer holds properties the update does not take (as a mock of the document answered
// `benefits update ID --activation-limit 5 --prefix NEW` with `velit_8c` beside a license key's properties,
// and the update was refused with a 422), `till benefits update` sends back the properties the update takes
// only, at every level; so does `till custom-fields update` with a select field's options.
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'

import {afterAll, beforeAll, expect, it} from 'vitest'

import {sandbox, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import type {Json} from '../helpers/emulator.js'

const ID = '3f1c6a52-8f0e-4a8b-9d3c-2b7e5f1a0c44'
const FIELD = '7d2e4b61-0c3a-4f5e-8b9d-1a2c3e4f5a6b'
const ORGANIZATION = 'b1a2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d'

/** A license-key benefit as a newer service shows it: fields the 2026-10 update does not take, at two levels. */
const benefit = (properties: Json): Json => ({
  id: ID,
  created_at: '2026-01-01T00:00:00Z',
  modified_at: null,
  type: 'license_keys',
  description: 'Keys',
  visibility: 'public',
  selectable: true,
  deletable: true,
  organization_id: ORGANIZATION,
  metadata: {},
  properties,
})

let server: Server
let url: string
let box: Sandbox
const patches: Json[] = []

beforeAll(async () => {
  box = sandbox()
  // what the newer service holds, by path; a PATCH merges its properties in and is recorded
  const objects: Record<string, Json> = {
    [`/v1/benefits/${ID}`]: benefit({
      prefix: 'OLD',
      expires: {ttl: 30, timeframe: 'day', velit_expires: 1},
      activations: {limit: 2, enable_customer_admin: true, velit_inner: 'x'},
      limit_usage: 10,
      velit_8c: 'newer, read-only',
    }),
    [`/v1/custom-fields/${FIELD}`]: {
      id: FIELD,
      created_at: '2026-01-01T00:00:00Z',
      modified_at: null,
      type: 'select',
      slug: 'plan',
      name: 'Plan',
      organization_id: ORGANIZATION,
      metadata: {},
      properties: {form_label: 'Plan', options: [{value: 'pro', label: 'Pro', color: 'gold'}], shown_since: '2027-01'},
    },
  }
  server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const send = (status: number, body: Json) => res.writeHead(status, {'content-type': 'application/json'}).end(JSON.stringify(body))
      const current = objects[req.url ?? '']
      if (!current) return send(404, {detail: 'Not Found'})
      if (req.method === 'GET') return send(200, current)
      if (req.method !== 'PATCH') return send(405, {detail: 'Method Not Allowed'})
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      patches.push(body)
      objects[req.url!] = {...current, properties: {...current.properties, ...body.properties}}
      return send(200, objects[req.url!])
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
})

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve))
  box?.cleanup()
})

const till = (args: string[]) => runInProcess(args, {env: box.env({TILL_API_URL: url, TILL_TOKEN: `polar_oat_${'T'.repeat(43)}`})})

it("benefits update sends back only the properties the update takes, not the newer service's own", async () => {
  patches.length = 0
  const r = await till(['benefits', 'update', ID, '--activation-limit', '5', '--prefix', 'NEW', '--json'])
  expect(r.code, r.stderr).toBe(0)
  expect(patches).toHaveLength(1)
  expect(patches[0].properties).toEqual({
    prefix: 'NEW',
    expires: {ttl: 30, timeframe: 'day'},
    activations: {limit: 5, enable_customer_admin: true},
    limit_usage: 10,
  })
})

it("custom-fields update sends the read properties as the update takes them, a select's options too", async () => {
  patches.length = 0
  const r = await till(['custom-fields', 'update', FIELD, '--label', 'Your plan', '--json'])
  expect(r.code, r.stderr).toBe(0)
  expect(patches).toHaveLength(1)
  expect(patches[0].properties).toEqual({form_label: 'Your plan', options: [{value: 'pro', label: 'Pro'}]})
})
