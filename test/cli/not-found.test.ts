// One not-found message everywhere: each command whose object is missing names the kind
// of object, the id and the environment, in words derived from the operation the request matched (the
// resource descriptions), never the service's bare "Not found"; exit 3.
import {afterAll, beforeAll, expect, it} from 'vitest'

import {envVars, sandbox, type Sandbox} from '../helpers/cli.js'
import {startEmulator, type Emulator} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'

let emulator: Emulator
let box: Sandbox
const GONE = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d'

beforeAll(async () => {
  emulator = await startEmulator()
  box = sandbox()
})
afterAll(async () => {
  await emulator?.stop()
  box?.cleanup()
})

const cases: Array<[string[], string]> = [
  [['benefits', 'grants', GONE], `benefit ${GONE}`],
  [['custom-fields', 'get', GONE], `custom field ${GONE}`],
  [['custom-fields', 'update', GONE, '--name', 'x'], `custom field ${GONE}`],
  [['events', 'get', GONE], `event ${GONE}`],
  [['files', 'update', GONE, '--name', 'x'], `file ${GONE}`],
  [['payments', 'get', GONE], `payment ${GONE}`],
  [['webhooks', 'redeliver', GONE], `webhook event ${GONE}`],
  [['webhooks', 'endpoints', 'reset-secret', GONE, '--yes'], `webhook endpoint ${GONE}`],
  [['customers', 'payment-methods', '--external-id', 'nobody_here'], 'customer with external id nobody_here'],
  [['customers', 'state', '--external-id', 'nobody_here'], 'customer with external id nobody_here'],
]

it.each(cases)('till %j names the missing object and the environment (exit 3)', async (args, what) => {
  const r = await runInProcess(args, {env: box.env(envVars(emulator.production))})
  expect(r.code, r.stderr).toBe(3)
  expect(r.stderr.split('\n')[0]).toBe(`Error: not found: there is no ${what} in local (profile local)`)
  expect(r.stderr).not.toMatch(/Not found$/m)
})
