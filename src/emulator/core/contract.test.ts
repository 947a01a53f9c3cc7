// The contract mode's checks against the service's own published document (contract/ in the repository).
import {fileURLToPath} from 'node:url'

import {beforeAll, describe, expect, it} from 'vitest'

import {Contract} from './contract.js'
import {DEPARTURES, DOCUMENT_FLAWS} from './contract-known.js'

const SPEC = fileURLToPath(new URL('../../../contract/2026-10.openapi.json', import.meta.url))
const ORDER = '1dbfc517-0bbf-4301-9ba8-555ca42b9737'

let contract: Contract
beforeAll(() => {
  contract = Contract.load(SPEC)
})

const request = (method: string, target: string, body?: unknown, headers: Record<string, string> = {}) => {
  const url = new URL(target, 'http://127.0.0.1')
  return contract.checkRequest({method, path: url.pathname, query: url.searchParams, headers, body, hasBody: body !== undefined})
}

describe('requests', () => {
  it('an unknown query parameter is a violation the service would ignore, not a refusal', () => {
    const r = request('GET', '/v1/custom-fields/?type_filter=text')
    expect(r.refusal).toBeUndefined()
    expect(r.violations.map((v) => v.at)).toEqual(['query.type_filter'])
  })

  it('a bare date where the document says date-time is refused at the parameter', () => {
    const r = request('GET', '/v1/orders/?created_after=2026-01-01')
    expect(r.refusal?.[0]).toMatchObject({loc: ['query', 'created_after']})
    expect(request('GET', '/v1/orders/?created_after=2026-01-01T00:00:00Z').violations).toEqual([])
  })

  it('a repeated parameter that takes one value takes the last, as the service does', () => {
    expect(request('GET', '/v1/products/?limit=abc&limit=5').refusal).toBeUndefined()
    expect(request('GET', '/v1/products/?limit=5&limit=abc').refusal?.[0]).toMatchObject({loc: ['query', 'limit'], type: 'int_type'})
  })

  it('metadata filters are one deepObject parameter', () => {
    expect(request('GET', '/v1/customers/?metadata[tier]=pro&metadata[tier]=team').violations).toEqual([])
  })

  it('a tagged union names its missing or unknown tag as pydantic does', () => {
    const missing = request('POST', '/v1/benefits/', {description: 'A perk'})
    expect(missing.refusal).toEqual([expect.objectContaining({type: 'union_tag_not_found', loc: ['body']})])
    const unknown = request('POST', '/v1/benefits/', {type: 'telepathy', description: 'A perk', properties: {}})
    expect(unknown.refusal).toEqual([expect.objectContaining({type: 'union_tag_invalid', loc: ['body'], ctx: expect.objectContaining({tag: 'telepathy'})})])
  })

  it('Accept must be a media type the operation answers', () => {
    expect(request('GET', '/v1/orders/export', undefined, {accept: 'application/json'}).violations.map((v) => v.at)).toEqual(['headers.accept'])
    expect(request('GET', '/v1/orders/export', undefined, {accept: 'text/csv'}).violations).toEqual([])
  })

  it('a path no operation has is a violation; the unpublished routes till uses knowingly are not', () => {
    expect(request('GET', '/v1/oauth2/').violations).toEqual([expect.objectContaining({at: 'path', operation: null})])
    expect(request('GET', `/v1/cli/listen/${ORDER}`).violations).toEqual([])
    // the service CLI's trigger routes (PR #14347)
    expect(request('GET', '/v1/cli/events').violations).toEqual([])
    expect(request('POST', `/v1/cli/trigger/${ORDER}`, {event: 'order.paid'}).violations).toEqual([])
    expect(request('POST', `/v1/cli/trigger/${ORDER}/x`, {event: 'order.paid'}).violations).toEqual([expect.objectContaining({at: 'path', operation: null})])
  })
})

describe('answers', () => {
  const op = (id: string) => contract.operation(id)!

  it('a field the schema requires and the answer lacks is named with the schema that requires it', () => {
    const invoice = {url: 'https://example.com/invoice.pdf'}
    expect(contract.checkAnswer(op('orders:invoice'), {status: 200, contentType: 'application/json', body: invoice})).toEqual([])
    const problems = contract.checkAnswer(op('orders:invoice'), {status: 200, contentType: 'application/json', body: {}})
    expect(problems).toEqual([expect.objectContaining({side: 'answer', at: 'body.url', message: 'required, missing'})])
  })

  it('a 2xx the operation does not document is a violation', () => {
    const problems = contract.checkAnswer(op('oauth2:clients:oauth2:create_client'), {status: 201, contentType: 'application/json', body: {}})
    expect(problems.map((p) => p.at)).toEqual(['status'])
  })

  it('the framework 422 is the answer to refused input on every operation, and the inactive introspection is known', () => {
    const detail = {detail: [{type: 'uuid_parsing', loc: ['path', 'id'], msg: 'Input should be a valid UUID', input: 'x'}]}
    expect(contract.checkAnswer(op('orders:generate_invoice'), {status: 422, contentType: 'application/json', body: detail})).toEqual([])
    expect(contract.checkAnswer(op('oauth2:introspect_token'), {status: 200, contentType: 'application/json', body: {active: false}})).toEqual([])
  })
})

describe('the departures listed in contract-known.ts', () => {
  it('each names an operation of the document and a status it answers otherwise, with its source line', () => {
    for (const d of DEPARTURES) {
      expect(contract.operation(d.operation), d.operation).toBeDefined()
      expect(d.source, d.operation).toMatch(/^server\/polar\/[\w/]+\.py:\d+/)
    }
  })

  it("each flaw of the document is one no answer can meet: a repeating discount matches two of Discount's members", async () => {
    const {Ajv2020} = await import('ajv/dist/2020.js')
    const addFormats = (await import('ajv-formats')).default as unknown as (ajv: InstanceType<typeof Ajv2020>) => void
    const document = contract.document as {components: {schemas: Record<string, {oneOf?: Array<{$ref: string}>; discriminator?: unknown}>}}
    for (const flaw of DOCUMENT_FLAWS) {
      const schema = document.components.schemas[flaw.schema]
      expect(schema?.oneOf, flaw.schema).toBeDefined()
      expect(schema?.discriminator, flaw.schema).toBeUndefined()
      expect(flaw.source).toMatch(/^server\/polar\/[\w/]+\.py:\d+/)
    }
    const ajv = new Ajv2020({strict: false, allErrors: true})
    addFormats(ajv)
    ajv.addSchema({...document, $id: 'doc'})
    const repeating = {
      duration: 'repeating',
      duration_in_months: 3,
      type: 'fixed',
      amount: 500,
      currency: 'usd',
      amounts: {usd: 500},
      created_at: '2026-01-01T00:00:00Z',
      modified_at: null,
      id: ORDER,
      metadata: {},
      name: 'Three months off',
      code: null,
      starts_at: null,
      ends_at: null,
      max_redemptions: null,
      max_redemptions_per_customer: null,
      redemptions_count: 0,
      organization_id: ORDER,
      products: [],
    }
    const members = document.components.schemas.Discount!.oneOf!.filter((m) => ajv.validate({$ref: `doc${m.$ref}`}, repeating))
    expect(members.map((m) => m.$ref.split('/').pop())).toEqual(['DiscountFixedOnceForeverDuration', 'DiscountFixedRepeatDuration'])
  })
})
