// The fuzz suite, second round: the surface added since the first (events, event types, meters,
// customer and portal meters, discounts, payments, disputes, custom fields, files, receipts and exports,
// checkout links, license keys, benefit grants, webhooks, metrics, OAuth2, listen, the catalog as code).
// Malformed requests to the emulator get a 4xx (never a 5xx) and it keeps serving; malformed command
// lines and garbage files exit with a documented code, one message, no stack trace, no token, and
// nothing half-written. Focused cases below the tables pin the defects this round fixed.
import {existsSync, readdirSync, writeFileSync} from 'node:fs'
import {connect} from 'node:net'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {BIN, envVars, expectNoToken, runShell, sandbox, spawnCli, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {api, startEmulator, type Emulator, type EnvHandle} from '../helpers/emulator.js'
import {garbageFiles, type RawCase} from './garbage.js'
import {allowRefusalsInFile} from '../helpers/contract.js'
import {scaled, waitUntil} from '../helpers/machine.js'

// every test here sends requests the service refuses, on purpose
allowRefusalsInFile()

let emulator: Emulator
let env: EnvHandle
let box: Sandbox
let product: string
/** A customer session token, for the portal routes (`CUSTOMER` in the table). */
let customerToken: string
let dir: string

const U0 = '00000000-0000-4000-8000-000000000000'
const deepFilter = (depth: number) =>
  encodeURIComponent(`{"conjunction":"and","clauses":[${'{"conjunction":"and","clauses":['.repeat(depth)}${']}'.repeat(depth)}]}`)
const form = {'content-type': 'application/x-www-form-urlencoded'}

beforeAll(async () => {
  emulator = await startEmulator()
  env = emulator.production
  box = sandbox()
  dir = box.root
  garbageFiles(dir)
  product = (await api(env, 'GET', '/products/?limit=1')).body.items[0].id
  const customer = (await api(env, 'GET', '/customers/?limit=1')).body.items[0].id
  customerToken = (await api(env, 'POST', '/customer-sessions/', {body: {customer_id: customer}})).body.token
}, scaled(60_000))

afterAll(async () => {
  await emulator.stop()
  box.cleanup()
})

const ev = (event: Record<string, unknown>) => JSON.stringify({events: [event]})
const requests: RawCase[] = [
  // events and event types
  {name: 'ingest: events not a list', method: 'POST', path: '/events/ingest', body: '{"events": "nope"}'},
  {name: 'ingest: name of the wrong type', method: 'POST', path: '/events/ingest', body: ev({name: 5, external_customer_id: 'c'})},
  {name: 'ingest: no customer', method: 'POST', path: '/events/ingest', body: ev({name: 'x'})},
  {name: 'ingest: timestamp garbage', method: 'POST', path: '/events/ingest', body: ev({name: 'x', external_customer_id: 'c', timestamp: 'garbage'})},
  {
    name: 'ingest: timestamp in the future',
    method: 'POST',
    path: '/events/ingest',
    body: ev({name: 'x', external_customer_id: 'c', timestamp: '2999-01-01T00:00:00Z'}),
  },
  {name: 'ingest: customer_id not a UUID', method: 'POST', path: '/events/ingest', body: ev({name: 'x', customer_id: 'zzz'})},
  {name: 'ingest: unknown customer_id', method: 'POST', path: '/events/ingest', body: ev({name: 'x', customer_id: U0})},
  {name: 'ingest: metadata a list', method: 'POST', path: '/events/ingest', body: ev({name: 'x', external_customer_id: 'c', metadata: [1]})},
  {
    name: 'ingest: truncated batch',
    method: 'POST',
    path: '/events/ingest',
    body: JSON.stringify({events: Array.from({length: 500}, () => ({name: 'x', external_customer_id: 'c'}))}).slice(0, -2),
  },
  {name: 'events: start_timestamp garbage', method: 'GET', path: '/events/?start_timestamp=nope'},
  {name: 'events: end_timestamp on February 30th', method: 'GET', path: '/events/?end_timestamp=2024-02-30T00:00:00Z'},
  {name: 'events: filter not JSON', method: 'GET', path: '/events/?filter=%7B'},
  {name: 'events: filter with an unknown conjunction', method: 'GET', path: `/events/?filter=${encodeURIComponent('{"conjunction":"xor","clauses":[]}')}`},
  {name: 'events: filter nested 3,000 deep', method: 'GET', path: `/events/?filter=${deepFilter(3000)}`},
  {name: 'events: meter_id not a UUID', method: 'GET', path: '/events/?meter_id=zzz'},
  {name: 'events: unknown meter_id', method: 'GET', path: `/events/?meter_id=${U0}`},
  {name: 'events: source unknown', method: 'GET', path: '/events/?source=alien'},
  {name: 'events: depth negative', method: 'GET', path: '/events/?depth=-1'},
  {name: 'events: depth a word', method: 'GET', path: '/events/?depth=abc'},
  {name: 'events: depth past 5', method: 'GET', path: '/events/?depth=6'},
  {name: 'event names: source unknown', method: 'GET', path: '/events/names?source=alien'},
  {name: 'event names: bad sorting', method: 'GET', path: '/events/names?sorting=bogus'},
  {name: 'event types: label empty', method: 'PATCH', path: `/event-types/${U0}`, body: '{"label": ""}'},
  {name: 'event types: parent_id not a UUID', method: 'GET', path: '/event-types/?parent_id=zzz'},
  // meters
  {name: 'meter: empty body', method: 'POST', path: '/meters/', body: '{}'},
  {
    name: 'meter: unknown aggregation',
    method: 'POST',
    path: '/meters/',
    body: '{"name":"Meter","filter":{"conjunction":"and","clauses":[]},"aggregation":{"func":"explode"}}',
  },
  {
    name: 'meter: clause value an object',
    method: 'POST',
    path: '/meters/',
    body: '{"name":"Meter","filter":{"conjunction":"and","clauses":[{"property":"x","operator":"eq","value":{"a":1}}]},"aggregation":{"func":"count"}}',
  },
  {name: 'quantities: timestamps garbage', method: 'GET', path: `/meters/${U0}/quantities?start_timestamp=x&end_timestamp=y&interval=day`},
  {
    name: 'quantities: meter id not a UUID',
    method: 'GET',
    path: '/meters/zzz/quantities?start_timestamp=2025-01-01T00:00:00Z&end_timestamp=2025-02-01T00:00:00Z&interval=day',
  },
  {name: 'meters: is_archived perhaps', method: 'GET', path: '/meters/?is_archived=perhaps'},
  {name: 'customer meters: customer_id not a UUID', method: 'GET', path: '/customer-meters/?customer_id=zzz'},
  {name: 'customer meters: bad sorting', method: 'GET', path: '/customer-meters/?sorting=bogus'},
  {name: 'portal meters: no token', method: 'GET', path: '/customer-portal/meters/', token: null},
  {name: 'portal meters: organization token', method: 'GET', path: '/customer-portal/meters/'},
  {name: 'portal meters: unknown customer token', method: 'GET', path: '/customer-portal/meters/', token: 'polar_cst_nope'},
  // the portal with a real customer session, and that session on organization routes
  {name: 'portal meters: meter_id not a UUID', method: 'GET', path: '/customer-portal/meters/?meter_id=zzz', token: 'CUSTOMER'},
  {name: 'portal meter: unknown id', method: 'GET', path: `/customer-portal/meters/${U0}`, token: 'CUSTOMER'},
  {name: 'portal grants: unknown type', method: 'GET', path: '/customer-portal/benefit-grants/?type=alien', token: 'CUSTOMER'},
  {
    name: 'portal subscription: cancel_at_period_end maybe',
    method: 'PATCH',
    path: `/customer-portal/subscriptions/${U0}`,
    body: '{"cancel_at_period_end": "maybe"}',
    token: 'CUSTOMER',
  },
  {name: 'customer session on the meters', method: 'GET', path: '/meters/', token: 'CUSTOMER'},
  {name: 'customer session ingesting events', method: 'POST', path: '/events/ingest', body: '{"events":[]}', token: 'CUSTOMER'},
  // discounts, payments, disputes
  {name: 'discount: percentage over 100', method: 'POST', path: '/discounts/', body: '{"name":"x","type":"percentage","basis_points":10001,"duration":"once"}'},
  {name: 'discount: basis points a word', method: 'POST', path: '/discounts/', body: '{"name":"x","type":"percentage","basis_points":"ten","duration":"once"}'},
  {name: 'discount: unknown type', method: 'POST', path: '/discounts/', body: '{"name":"x","type":"bogus","duration":"once"}'},
  {name: 'discount: negative amount', method: 'POST', path: '/discounts/', body: '{"name":"x","type":"fixed","amounts":{"usd":-1},"duration":"once"}'},
  {
    name: 'discount: repeating without months',
    method: 'POST',
    path: '/discounts/',
    body: '{"name":"x","type":"percentage","basis_points":100,"duration":"repeating"}',
  },
  {
    name: 'discount: ends before it starts',
    method: 'POST',
    path: '/discounts/',
    body: '{"name":"x","type":"percentage","basis_points":100,"duration":"once","starts_at":"2026-02-01T00:00:00Z","ends_at":"2026-01-01T00:00:00Z"}',
  },
  {
    name: 'discount: code with spaces',
    method: 'POST',
    path: '/discounts/',
    body: '{"name":"x","type":"percentage","basis_points":100,"duration":"once","code":"a b"}',
  },
  {
    name: 'discount: product not a UUID',
    method: 'POST',
    path: '/discounts/',
    body: '{"name":"x","type":"percentage","basis_points":100,"duration":"once","products":["zzz"]}',
  },
  {name: 'payments: unknown status', method: 'GET', path: '/payments/?status=nope'},
  {name: 'payments: order_id not a UUID', method: 'GET', path: '/payments/?order_id=zzz'},
  {name: 'payment: unknown id', method: 'GET', path: `/payments/${U0}`},
  {name: 'disputes: unknown status', method: 'GET', path: '/disputes/?status=nope'},
  {name: 'dispute accept: unknown id', method: 'POST', path: `/disputes/${U0}/accept`},
  {name: 'dispute accept: id not a UUID', method: 'POST', path: '/disputes/zzz/accept'},
  // custom fields, files
  {
    name: 'custom field: select without options',
    method: 'POST',
    path: '/custom-fields/',
    body: '{"type":"select","slug":"s","name":"x","properties":{"options":[]}}',
  },
  {name: 'custom field: unknown type', method: 'POST', path: '/custom-fields/', body: '{"type":"alien","slug":"a","name":"x","properties":{}}'},
  {name: 'custom field: slug with spaces', method: 'POST', path: '/custom-fields/', body: '{"type":"text","slug":"Bad Slug","name":"x","properties":{}}'},
  {name: 'custom fields: unknown type filter', method: 'GET', path: '/custom-fields/?type=alien'},
  {name: 'file: no parts', method: 'POST', path: '/files/', body: '{"name":"a","mime_type":"a/b","size":1,"upload":{"parts":[]},"service":"downloadable"}'},
  {
    name: 'file: parts that do not cover it',
    method: 'POST',
    path: '/files/',
    body: '{"name":"a","mime_type":"a/b","size":10,"upload":{"parts":[{"number":1,"chunk_start":0,"chunk_end":3}]},"service":"downloadable"}',
  },
  {
    name: 'file: size 1e20',
    method: 'POST',
    path: '/files/',
    body: '{"name":"a","mime_type":"a/b","size":1e20,"upload":{"parts":[{"number":1,"chunk_start":0,"chunk_end":1e20}]},"service":"downloadable"}',
  },
  {
    name: 'file: complete an unknown upload',
    method: 'POST',
    path: `/files/${U0}/uploaded`,
    body: '{"id":"x","path":"y","parts":[{"number":1,"checksum_etag":"e","checksum_sha256_base64":null}]}',
  },
  {name: 'files: ids not UUIDs', method: 'GET', path: '/files/?ids=zzz'},
  // receipts, exports, checkouts, links, license keys, grants
  {name: 'receipt: unknown order', method: 'GET', path: `/orders/${U0}/receipt`},
  {name: 'receipt: order id not a UUID', method: 'GET', path: '/orders/zzz/receipt'},
  {name: 'orders export: product_id not a UUID', method: 'GET', path: '/orders/export?product_id=zzz'},
  {name: 'subscriptions export: product_id not a UUID', method: 'GET', path: '/subscriptions/export?product_id=zzz'},
  {name: 'checkout update: id not a UUID', method: 'PATCH', path: '/checkouts/zzz', body: '{}'},
  {name: 'checkout link: no products', method: 'POST', path: '/checkout-links/', body: '{"products":[]}'},
  {
    name: 'checkout link: javascript: success URL',
    method: 'POST',
    path: '/checkout-links/',
    body: `{"products":["${U0}"],"success_url":"javascript:alert(1)"}`,
  },
  {name: 'license key: limit_activations 0', method: 'PATCH', path: `/license-keys/${U0}`, body: '{"limit_activations":0}'},
  {name: 'license key: unknown status', method: 'PATCH', path: `/license-keys/${U0}`, body: '{"status":"alien"}'},
  {
    name: 'license key activate: organization_id not a UUID',
    method: 'POST',
    path: '/customer-portal/license-keys/activate',
    token: null,
    body: '{"key":"x","organization_id":"zzz","label":"l"}',
  },
  {name: 'benefit grants: is_granted maybe', method: 'GET', path: '/benefit-grants/?is_granted=maybe'},
  {name: 'benefit grants of a benefit id not a UUID', method: 'GET', path: '/benefits/zzz/grants'},
  {name: 'payment methods of an unknown customer', method: 'GET', path: `/customers/${U0}/payment-methods`},
  // webhooks, metrics, OAuth2
  {name: 'deliveries: endpoint_id not a UUID', method: 'GET', path: '/webhooks/deliveries?endpoint_id=zzz'},
  {name: 'deliveries: February 30th', method: 'GET', path: '/webhooks/deliveries?start_timestamp=2025-02-30T00:00:00Z'},
  {name: 'deliveries: http_code_class 9xx', method: 'GET', path: '/webhooks/deliveries?http_code_class=9xx'},
  {name: 'redeliver: unknown event', method: 'POST', path: `/webhooks/events/${U0}/redeliver`},
  {name: 'reset secret: id not a UUID', method: 'PATCH', path: '/webhooks/endpoints/zzz/secret', body: '{}'},
  {name: 'endpoint: ftp URL', method: 'POST', path: '/webhooks/endpoints', body: '{"url":"ftp://x","format":"raw","events":[]}'},
  {name: 'metrics: dates garbage', method: 'GET', path: '/metrics/?start_date=x&end_date=y&interval=day'},
  {name: 'metrics: February 30th', method: 'GET', path: '/metrics/?start_date=2025-02-30&end_date=2025-03-01&interval=day'},
  {name: 'metrics: interval fortnight', method: 'GET', path: '/metrics/?start_date=2025-01-01&end_date=2025-03-01&interval=fortnight'},
  {name: 'metrics: unknown time zone', method: 'GET', path: '/metrics/?start_date=2025-01-01&end_date=2025-03-01&interval=day&timezone=Mars/Base'},
  {name: 'metrics: unknown metric', method: 'GET', path: '/metrics/?start_date=2025-01-01&end_date=2025-03-01&interval=day&metrics=nope'},
  {name: 'metrics: no parameters', method: 'GET', path: '/metrics/'},
  {
    name: 'oauth2 client: unknown auth method',
    method: 'POST',
    path: '/oauth2/register',
    body: '{"client_name":"x","redirect_uris":["https://x.example/cb"],"token_endpoint_auth_method":"alien"}',
  },
  {
    name: 'oauth2 client: unknown scope',
    method: 'POST',
    path: '/oauth2/register',
    body: '{"client_name":"x","redirect_uris":["https://x.example/cb"],"scope":"nope"}',
  },
  {name: 'oauth2 client: unknown id', method: 'GET', path: '/oauth2/register/nope'},
  {name: 'token: unknown grant type', method: 'POST', path: '/oauth2/token', token: null, body: 'grant_type=alien', headers: form},
  {
    name: 'token: unknown code',
    method: 'POST',
    path: '/oauth2/token',
    token: null,
    body: 'grant_type=authorization_code&code=nope&client_id=x&redirect_uri=https://x',
    headers: form,
  },
  {name: 'token: JSON instead of a form', method: 'POST', path: '/oauth2/token', token: null, body: '{"grant_type":"refresh_token"}'},
  {name: 'userinfo: no token', method: 'GET', path: '/oauth2/userinfo', token: null},
]

describe('malformed HTTP requests to the new routes', () => {
  it(
    `${requests.length} requests: each a 4xx, never a 5xx, and the emulator keeps serving`,
    async () => {
      expect(requests.length).toBeGreaterThanOrEqual(40)
      const outcomes: string[] = []
      for (const c of requests) {
        const r = await api(env, c.method, c.path, {token: c.token === 'CUSTOMER' ? customerToken : c.token, rawBody: c.body, headers: c.headers})
        if (r.status < 400 || r.status >= 500) outcomes.push(`${c.name}: HTTP ${r.status} ${r.text.slice(0, 200)}`)
        expect(r.text.includes(env.token), `${c.name} echoes the token`).toBe(false)
      }
      expect(outcomes).toEqual([])
      expect((await api(env, 'GET', `/products/${product}`)).status).toBe(200)
    },
    scaled(120_000),
  )

  it('answers as the service validates: UUID lists, depth bounds, enum filters, calendar dates, a discount period', async () => {
    const detail = async (path: string, init: {method?: string; body?: unknown} = {}) => {
      const r = await api(env, init.method ?? 'GET', path, 'body' in init ? {body: init.body} : {})
      expect(r.status, path).toBe(422)
      return r.body.detail[0]
    }
    expect(await detail('/files/?ids=zzz')).toMatchObject({type: 'uuid_parsing', loc: ['query', 'ids'], input: 'zzz'})
    expect(await detail('/events/?depth=6')).toMatchObject({type: 'less_than_equal', loc: ['query', 'depth'], ctx: {le: 5}})
    expect(await detail('/events/?depth=abc')).toMatchObject({type: 'int_parsing', loc: ['query', 'depth']})
    expect(await detail('/events/?meter_id=zzz')).toMatchObject({type: 'uuid_parsing', loc: ['query', 'meter_id']})
    expect(await detail('/events/names?source=alien')).toMatchObject({type: 'enum', loc: ['query', 'source']})
    expect(await detail('/custom-fields/?type=alien')).toMatchObject({type: 'enum', loc: ['query', 'type']})
    expect(await detail('/events/?end_timestamp=2024-02-30T00:00:00Z')).toMatchObject({
      msg: 'Input should be a valid datetime or date, day value is outside expected range',
    })
    expect(await detail('/events/?start_timestamp=2023-13-01')).toMatchObject({
      msg: 'Input should be a valid datetime or date, month value is outside expected range',
    })
    const period = {
      name: 'Backwards',
      type: 'percentage',
      basis_points: 100,
      duration: 'once',
      starts_at: '2026-02-01T00:00:00Z',
      ends_at: '2026-01-01T00:00:00Z',
    }
    expect(await detail('/discounts/', {method: 'POST', body: period})).toMatchObject({msg: 'Value error, starts_at must be before ends_at', loc: ['body']})
    expect((await api(env, 'GET', '/discounts/?query=Backwards')).body.items).toEqual([])
    expect((await api(env, 'GET', '/events/?end_timestamp=2024-02-29T00:00:00Z')).status).toBe(200)
    // the type filter is ?type= (as the service names it), and it filters
    const selects = (await api(env, 'GET', '/custom-fields/?type=select&limit=100')).body.items as Array<{type: string}>
    const all = (await api(env, 'GET', '/custom-fields/?limit=100')).body.items as Array<{type: string}>
    expect(selects.every((f) => f.type === 'select')).toBe(true)
    expect(selects.length).toBe(all.filter((f) => f.type === 'select').length)
  })
})

// Command lines: [description, argv or a shell line (TILLCMD for till, run in the sandbox root)]
type Line = [string, string[] | string]
const lines: Line[] = [
  // events
  // today and yesterday are dates (src/cli/input/when.ts); any other word is not
  ['events list --since a word', ['events', 'list', '--since', 'someday']],
  ['events list --since February 30th', ['events', 'list', '--since', '2024-02-30']],
  ['events list --since after --until', ['events', 'list', '--since', '2025-01-02', '--until', '2025-01-01']],
  ['events list --filter not JSON', ['events', 'list', '--filter', '{"and":']],
  ['events get malformed id', ['events', 'get', 'not-a-uuid']],
  ['events ingest a missing file', 'TILLCMD events ingest missing.jsonl'],
  ['events ingest a folder', 'TILLCMD events ingest adir'],
  ['events ingest binary', 'TILLCMD events ingest bin.dat'],
  ['events ingest truncated JSON', 'TILLCMD events ingest trunc.jsonl'],
  ['events ingest wrong types', 'TILLCMD events ingest types.jsonl'],
  ['events ingest metadata 3,000 deep', 'TILLCMD events ingest deep.jsonl'],
  ['events ingest 2 MiB of one line', 'TILLCMD events ingest huge.bin'],
  ['events ingest CSV with unknown columns', 'TILLCMD events ingest bad-columns.csv'],
  ['events ingest CSV with an open quote', 'TILLCMD events ingest quote.csv'],
  ['events ingest --checkpoint a folder', 'TILLCMD events ingest bom-crlf.jsonl --checkpoint adir'],
  ['events ingest --checkpoint in a missing folder', 'TILLCMD events ingest bom-crlf.jsonl --checkpoint nowhere/cp.json'],
  ['events ingest binary stdin', 'printf "\\377\\376\\001" | TILLCMD events ingest -'],
  ['events types update empty label', ['events', 'types', 'update', U0, '--label', '']],
  // meters
  ['meters create unknown aggregation', ['meters', 'create', '--name', 'Fuzz', '--aggregation', 'explode']],
  ['meters create --from a folder', 'TILLCMD meters create --from adir'],
  ['meters create --from a JSON list', 'TILLCMD meters create --from meter-array.json'],
  ['meters create --from truncated JSON', 'TILLCMD meters create --from meter-trunc.json'],
  ['meters archive - (it takes one id)', `printf '%s\\n' ${U0} | TILLCMD meters archive - --yes`],
  ['meters quantities --start February 30th', ['meters', 'quantities', U0, '--start', '2025-02-30']],
  ['customer-meters list --meter not a UUID', ['customer-meters', 'list', '--meter', 'zzz']],
  // discounts, payments, disputes, custom fields, files
  ['discounts create --percent 150', ['discounts', 'create', '--name', 'x', '--percent', '150']],
  ['discounts create --starts-at a word', ['discounts', 'create', '--name', 'x', '--percent', '10', '--starts-at', 'tomorrow']],
  ['discounts create ends before it starts', ['discounts', 'create', '--name', 'x', '--percent', '10', '--starts-at', '2026-02-01', '--ends-at', '2026-01-01']],
  ['disputes accept unknown id', ['disputes', 'accept', U0, '--yes']],
  ['custom-fields create select without options', ['custom-fields', 'create', '--type', 'select', '--slug', 's1', '--name', 'x']],
  ['custom-fields attach --product not a UUID', ['custom-fields', 'attach', U0, '--product', 'zzz']],
  ['files upload a missing file', 'TILLCMD files upload missing.bin'],
  ['files upload a folder', 'TILLCMD files upload adir'],
  ['files upload a device', ['files', 'upload', '/dev/null']],
  ['files list --id not a UUID', ['files', 'list', '--id', 'zzz']],
  // receipts, exports, links, keys, org
  ['orders receipt unknown order', ['orders', 'receipt', U0]],
  ['orders export --file in a missing folder', 'TILLCMD orders export --file nowhere/orders.csv'],
  ['orders export --file a folder', 'TILLCMD orders export --file adir'],
  ['customers export --file a folder with a slash', 'TILLCMD customers export --file adir/'],
  ['checkout-links create --product not a UUID', ['checkout-links', 'create', '--product', 'zzz']],
  ['license-keys validate an empty key', ['license-keys', 'validate', '']],
  ['license-keys activation ids not UUIDs', ['license-keys', 'activation', 'zzz', 'yyy']],
  // catalog
  ['catalog validate a missing file', 'TILLCMD catalog validate missing.yaml'],
  ['catalog validate a folder', 'TILLCMD catalog validate adir'],
  ['catalog validate binary', 'TILLCMD catalog validate bin.dat'],
  ['catalog validate 2 MiB of garbage', 'TILLCMD catalog validate huge.bin'],
  ['catalog validate broken YAML', 'TILLCMD catalog validate catalog-bad.yaml'],
  ['catalog validate duplicate keys', 'TILLCMD catalog validate catalog-dup.yaml'],
  ['catalog validate an alias bomb', 'TILLCMD catalog validate catalog-bomb.yaml'],
  ['catalog validate 3,000 levels deep', 'TILLCMD catalog validate catalog-deep.yaml'],
  ['catalog plan empty stdin', 'printf "" | TILLCMD catalog plan -'],
  ['catalog apply an alias bomb', 'TILLCMD catalog apply catalog-bomb.yaml --yes'],
  ['catalog pull --out a folder', 'TILLCMD catalog pull --out adir'],
  ['catalog pull --out an empty name', ['catalog', 'pull', '--out', '']],
  ['orders export --file an empty name', ['orders', 'export', '--file', '']],
  ['events ingest --checkpoint an empty name', 'TILLCMD events ingest bom-crlf.jsonl --checkpoint ""'],
  ['files upload an empty path', ['files', 'upload', '']],
  ['catalog pull --out in a missing folder', 'TILLCMD catalog pull --out nowhere/catalog.yaml'],
  // metrics, report, webhooks, listen, OAuth2
  ['metrics unknown metric', ['metrics', '--metric', 'nope']],
  ['report --html a folder', 'TILLCMD report --html adir'],
  ['report --html in a missing folder', 'TILLCMD report --html nowhere/report.html'],
  ['webhooks redeliver unknown event', ['webhooks', 'redeliver', U0]],
  ['webhooks endpoints reset-secret malformed id', ['webhooks', 'endpoints', 'reset-secret', 'zzz']],
  ['webhooks verify --body a folder', 'printf "s" | TILLCMD webhooks verify --body adir --secret-stdin --id x --timestamp 1 --signature v1,x'],
  ['listen --forward-to ftp:', ['listen', '--forward-to', 'ftp://x']],
  ['oauth2-clients get an empty id', ['oauth2-clients', 'get', '']],
  ['oauth2-clients create bad redirect URI', ['oauth2-clients', 'create', '--name', 'x', '--redirect-uri', 'not a url']],
  ['api --input a folder', 'TILLCMD api POST /customers/ --input adir'],
]

const DOCUMENTED = new Set([1, 2, 3, 4, 5, 6])

/** The words of a command line as a shell splits them: on spaces, with "..." kept whole (possibly empty). */
const shellWords = (line: string): string[] => [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2])

describe('malformed command lines against the new commands', () => {
  it(
    `${lines.length} command lines: a documented exit code, one message, no stack trace, no token, no leftovers`,
    async () => {
      expect(lines.length).toBeGreaterThanOrEqual(40)
      const vars = box.env(envVars(env))
      const problems: string[] = []
      const run = async ([name, command]: Line) => {
        // a plain `TILLCMD args` line runs in this process too, in the sandbox; a pipeline needs a shell
        const words = typeof command === 'string' && /^TILLCMD [^|]*$/.test(command) ? shellWords(command).slice(1) : undefined
        const r = Array.isArray(command)
          ? await runInProcess(command, {env: vars, input: ''})
          : words
            ? await runInProcess(words, {env: vars, input: '', cwd: dir})
            : await runShell(`cd ${JSON.stringify(dir)} && ${command.replaceAll('TILLCMD', `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)}`)}`, {
                env: vars,
              })
        if (!DOCUMENTED.has(r.code ?? -1)) problems.push(`${name}: exit ${r.code} ${r.stderr.slice(0, 200)}`)
        if (/\n\s+at .+:\d+:\d+/.test(r.stderr) || /TypeError|RangeError|ReferenceError|SyntaxError|internal error/.test(r.stderr))
          problems.push(`${name}: stack trace or raw error: ${r.stderr.slice(0, 300)}`)
        if (/\bE[A-Z]{3,}\b[:,]|illegal operation|\.part\b|\.tmp\b|partial-\d/.test(r.stderr))
          problems.push(`${name}: errno jargon or a temporary file's name: ${r.stderr.slice(0, 300)}`)
        if (r.stderr.trim() === '') problems.push(`${name}: exit ${r.code} with nothing on stderr`)
        if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(r.stderr.replace(/\u001b\[[0-9;]*m/g, ''))) problems.push(`${name}: raw control bytes on stderr`)
        expectNoToken(r.stdout + r.stderr, env.token, name)
      }
      for (let i = 0; i < lines.length; i += 4) await Promise.all(lines.slice(i, i + 4).map(run))
      expect(problems).toEqual([])
      // nothing was written where it was refused: no file, no temporary file
      expect(readdirSync(join(dir, 'adir'))).toEqual([])
      expect(existsSync(join(dir, 'nowhere'))).toBe(false)
      expect(readdirSync(dir).filter((f) => /\.(part|tmp)$|partial-/.test(f))).toEqual([])
      expect((await api(env, 'GET', `/products/${product}`)).status).toBe(200)
    },
    scaled(240_000),
  )
})

describe('what this round fixed', () => {
  const till = (args: string[], extra: Record<string, string> = {}) => runInProcess(args, {env: box.env(envVars(env, extra))})

  it('a checkpoint that cannot be saved stops the ingest before any event is sent', async () => {
    const count = async () => (await api(env, 'GET', '/events/?name=fuzz.ckpt&limit=1')).body.pagination.total_count as number
    const file = join(dir, 'ckpt.jsonl')
    writeFileSync(file, '{"name":"fuzz.ckpt","external_customer_id":"c1"}\n{"name":"fuzz.ckpt","external_customer_id":"c1"}\n')
    const r = await till(['events', 'ingest', file, '--checkpoint', join(dir, 'nowhere', 'cp.json')])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(
      `Error: cannot write the checkpoint ${join(dir, 'nowhere', 'cp.json')}: no such file or folder\nHint: give --checkpoint a path in a folder you can write to\n`,
    )
    expect(await count()).toBe(0)
    const ok = await till(['events', 'ingest', file, '--checkpoint', join(dir, 'cp.json')])
    expect(ok.code).toBe(0)
    expect(await count()).toBe(2)
  })

  it('files named by the user are checked before any request, in plain words', async () => {
    const cases: Array<[string[], string]> = [
      [
        ['orders', 'export', '--file', join(dir, 'nowhere', 'o.csv')],
        `Error: --file ${join(dir, 'nowhere', 'o.csv')}: the folder ${join(dir, 'nowhere')} does not exist\nHint: create the folder first, or give another path\n`,
      ],
      [
        ['report', '--html', join(dir, 'adir')],
        `Error: --html ${join(dir, 'adir')} is a folder\nHint: give a file name, e.g. --html ${join(dir, 'adir')}/out\n`,
      ],
      [
        ['events', 'ingest', join(dir, 'adir')],
        `Error: cannot read ${join(dir, 'adir')}: it is a folder, not a file\nHint: give the path of a JSON lines or CSV file, or - for stdin\n`,
      ],
      [
        ['files', 'upload', join(dir, 'missing.bin')],
        `Error: cannot read ${join(dir, 'missing.bin')}: no such file or folder\nHint: give the path of a file to upload\n`,
      ],
      [['orders', 'export', '--file', ''], 'Error: --file needs a file name\nHint: give --file the path of the file to write\n'],
      [
        ['meters', 'archive', '-', '--yes'],
        'Error: "till meters archive" takes one meter id, not - (ids from stdin)\nHint: run it once per id, e.g.: ... | xargs -n1 till meters archive\n',
      ],
    ]
    for (const [args, stderr] of cases) {
      const r = await till(args)
      expect({args, code: r.code, stderr: r.stderr, stdout: r.stdout}).toEqual({args, code: 2, stderr, stdout: ''})
    }
  })

  it('a CSV header of unknown columns (or garbage) fails the ingest even with no rows; it is not skipped as settled', async () => {
    writeFileSync(join(dir, 'header-bad.csv'), 'nom,client\n')
    const r = await till(['events', 'ingest', join(dir, 'header-bad.csv')])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^Error: line 1: bad CSV \(the header has an unknown column "nom"; use name, customer_id/)
  })

  it('an event larger than one request may carry is a bad line with its number, not a 413 for the whole batch', async () => {
    const file = join(dir, 'too-big.jsonl')
    const big = JSON.stringify({name: 'fuzz.big', external_customer_id: 'c1', metadata: {blob: 'x'.repeat(9 * 1024 * 1024)}})
    writeFileSync(file, `${big}\n${JSON.stringify({name: 'fuzz.after-big', external_customer_id: 'c1'})}\n`)
    const r = await till(['events', 'ingest', file])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^Error: line 1: the event is 9\.0 MiB, more than one request may carry \(8 MiB\)\n/)
    const skipped = await till(['events', 'ingest', file, '--skip-invalid'])
    expect(skipped.code).toBe(11)
    expect((await api(env, 'GET', '/events/?name=fuzz.after-big')).body.pagination.total_count).toBe(1)
    expect((await api(env, 'GET', '/events/?name=fuzz.big')).body.pagination.total_count).toBe(0)
  })

  it('a JSON lines file with a byte order mark and CRLF line ends is read as it is meant', async () => {
    const r = await till(['events', 'ingest', join(dir, 'bom-crlf.jsonl')])
    expect(r.code).toBe(0)
    expect(r.stderr).toContain('Read 2 lines: 2 inserted')
    expect((await api(env, 'GET', '/events/?name=fuzz.bom')).body.pagination.total_count).toBe(2)
  })

  it('a YAML alias bomb is a problem of the file (exit 2), not an internal error', async () => {
    const r = await till(['catalog', 'validate', join(dir, 'catalog-bomb.yaml')])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("catalog-bomb.yaml:1: the file's aliases (*name) expand too far; write the values out")
  })

  it('custom-fields list --type filters (the service reads ?type=)', async () => {
    const r = await till(['custom-fields', 'list', '--type', 'text', '--all', '-o', 'jsonl'])
    expect(r.code).toBe(0)
    const types = r.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as {type: string}).type)
    expect(types.length).toBeGreaterThan(0)
    expect(new Set(types)).toEqual(new Set(['text']))
  })

  it(
    'a request target no URL parser takes gets a 400, and the emulator and the sign-in callback go on serving',
    async () => {
      const raw = (port: number, text: string) =>
        new Promise<string>((resolve) => {
          const socket = connect(port, '127.0.0.1', () => socket.end(text))
          let data = ''
          socket.on('data', (chunk) => (data += chunk))
          socket.on('close', () => resolve(data.split('\r\n')[0] ?? ''))
          socket.on('error', () => resolve('connection error'))
        })
      const bad = 'GET http://[::1 HTTP/1.1\r\nHost: x\r\n\r\n'
      expect(await raw(Number(new URL(env.url).port), bad)).toBe('HTTP/1.1 400 Bad Request')
      expect((await api(env, 'GET', `/products/${product}`)).status).toBe(200)
      const login = spawnCli(
        ['auth', 'login', '--web', '--no-browser', '--port', '0', '--environment', 'production', '--url', env.url.replace(/\/v1$/, ''), '--timeout', '30'],
        {env: box.env({TILL_CONFIG_DIR: join(dir, 'web-config')})},
      )
      await waitUntil(() => /redirect_uri=http%3A%2F%2F127\.0\.0\.1%3A(\d+)/.test(login.stderr()), 20_000)
      const port = Number(/redirect_uri=http%3A%2F%2F127\.0\.0\.1%3A(\d+)/.exec(login.stderr())?.[1])
      expect(port).toBeGreaterThan(0)
      expect(await raw(port, bad)).toMatch(/^HTTP\/1\.1 404/)
      // still there: a forged answer (wrong state) now ends the sign-in, exit 4, nothing saved, no stack trace
      expect(await raw(port, 'GET /oauth/callback?state=forged&code=x HTTP/1.1\r\nHost: x\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/)
      const r = await login.done
      expect(r.code).toBe(4)
      expect(r.stderr).toContain("the browser's answer did not carry the state till sent")
      expect(r.stderr).not.toMatch(/TypeError|\n\s+at /)
    },
    scaled(60_000),
  )

  it(
    'Ctrl-C while an export is on its way leaves no file and no temporary file, exit 130',
    async () => {
      const slow = await startEmulator({latency: '5s'})
      try {
        const out = join(dir, 'interrupted.csv')
        // --debug traces each request as it is sent: Ctrl-C comes while the export is in flight
        const child = spawnCli(['orders', 'export', '--file', out, '--debug'], {env: box.env(envVars(slow.production))})
        await waitUntil(() => child.stderr().includes('/orders/export'), 20_000)
        expect(child.stderr()).toContain('→ GET')
        child.child.kill('SIGINT')
        const r = await child.done
        expect(r.code).toBe(130)
        expect(r.stderr).toContain('Interrupted.')
        expect(existsSync(out)).toBe(false)
        expect(readdirSync(dir).filter((f) => f.includes('interrupted'))).toEqual([])
      } finally {
        await slow.stop()
      }
    },
    scaled(60_000),
  )
})
