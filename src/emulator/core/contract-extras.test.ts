import {describe, expect, it} from 'vitest'

import {Contract} from './contract.js'

// a small document in the service's shapes: an untagged union of two models, a tagged union, a list of
// nested models, a metadata map
const document = {
  openapi: '3.1.0',
  paths: {
    '/v1/things/': {
      post: {
        operationId: 'things:create',
        requestBody: {required: true, content: {'application/json': {schema: {$ref: '#/components/schemas/ThingCreate'}}}},
        responses: {'201': {content: {'application/json': {schema: {type: 'object'}}}}},
      },
    },
    '/v1/parts/': {
      post: {
        operationId: 'parts:create',
        requestBody: {required: true, content: {'application/json': {schema: {$ref: '#/components/schemas/PartCreate'}}}},
        responses: {'201': {content: {'application/json': {schema: {type: 'object'}}}}},
      },
    },
  },
  components: {
    schemas: {
      ThingCreate: {oneOf: [{$ref: '#/components/schemas/IndividualThingCreate'}, {$ref: '#/components/schemas/TeamThingCreate'}]},
      IndividualThingCreate: {
        type: 'object',
        title: 'IndividualThingCreate',
        required: ['name'],
        properties: {
          name: {type: 'string'},
          metadata: {type: 'object', additionalProperties: {anyOf: [{type: 'string'}, {type: 'integer'}]}},
          address: {anyOf: [{$ref: '#/components/schemas/Address'}, {type: 'null'}]},
          prices: {type: 'array', items: {$ref: '#/components/schemas/Price'}},
        },
      },
      TeamThingCreate: {
        type: 'object',
        title: 'TeamThingCreate',
        required: ['name', 'type'],
        properties: {name: {type: 'string'}, type: {const: 'team'}, seats: {type: 'integer'}},
      },
      Address: {type: 'object', title: 'Address', required: ['country'], properties: {country: {type: 'string'}, line1: {type: 'string'}}},
      Price: {
        oneOf: [{$ref: '#/components/schemas/FixedPrice'}, {$ref: '#/components/schemas/FreePrice'}],
        discriminator: {propertyName: 'amount_type', mapping: {fixed: '#/components/schemas/FixedPrice', free: '#/components/schemas/FreePrice'}},
      },
      FixedPrice: {
        type: 'object',
        title: 'FixedPrice',
        required: ['amount_type', 'price_amount'],
        properties: {amount_type: {const: 'fixed'}, price_amount: {type: 'integer'}},
      },
      FreePrice: {type: 'object', title: 'FreePrice', required: ['amount_type'], properties: {amount_type: {const: 'free'}}},
      PartCreate: {type: 'object', title: 'PartCreate', properties: {label: {type: 'string'}}},
    },
  },
}

const contract = new Contract(document)

function post(path: string, body: unknown) {
  return contract.checkRequest({method: 'POST', path, query: new URLSearchParams(), headers: {'content-type': 'application/json'}, body, hasBody: true})
}

describe('contract: body properties the schema does not declare', () => {
  it('records a top-level property no member of the union declares, naming the member the value validates against, without refusing', () => {
    const check = post('/v1/things/', {name: 'a', billing_name: 'B'})
    expect(check.refusal).toBeUndefined()
    expect(check.violations).toEqual([
      expect.objectContaining({
        side: 'request',
        operation: 'things:create',
        at: 'body.billing_name',
        schemaPath: '#/components/schemas/IndividualThingCreate',
        message: 'not a property of IndividualThingCreate; the service ignores it',
      }),
    ])
    expect(check.violations[0]!.refused).toBeUndefined()
  })

  it('reads an untagged union by the member that declares most of what the body carries', () => {
    // both members validate; the team member declares type and seats
    expect(post('/v1/things/', {name: 'a', type: 'team', seats: 3}).violations).toEqual([])
    expect(post('/v1/things/', {name: 'a', type: 'team', seats: 3, colour: 'red'}).violations.map((v) => [v.at, v.message])).toEqual([
      ['body.colour', 'not a property of TeamThingCreate; the service ignores it'],
    ])
  })

  it('follows nested models, nullable references and list items of a tagged union by their tag', () => {
    const check = post('/v1/things/', {
      name: 'a',
      address: {country: 'SE', city: 'Lund'},
      prices: [
        {amount_type: 'fixed', price_amount: 100, currency: 'usd'},
        {amount_type: 'free', price_amount: 0},
      ],
    })
    expect(check.refusal).toBeUndefined()
    expect(check.violations.map((v) => `${v.at}: ${v.message}`)).toEqual([
      'body.address.city: not a property of Address; the service ignores it',
      'body.prices[0].currency: not a property of FixedPrice; the service ignores it',
      'body.prices[1].price_amount: not a property of FreePrice; the service ignores it',
    ])
    expect(post('/v1/things/', {name: 'a', address: null, prices: []}).violations).toEqual([])
  })

  it('takes every key of a map with additionalProperties (metadata) as declared', () => {
    expect(post('/v1/things/', {name: 'a', metadata: {tier: 'pro', seats: 3}}).violations).toEqual([])
  })

  it('says nothing more of a body the document refuses (the 422 says what is wrong)', () => {
    const check = post('/v1/parts/', {label: 5, extra: true})
    expect(check.refusal).toBeDefined()
    expect(check.violations.every((v) => v.refused)).toBe(true)
    expect(post('/v1/parts/', {label: 'x', extra: true}).violations.map((v) => v.at)).toEqual(['body.extra'])
  })
})
