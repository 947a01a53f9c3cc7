// The service's changes since the snapshot: docs/contract.md lists each one on a line of its table, the
// rows that depart from the kept document name their file of contract/changes/ (and no file is unnamed),
// and the contract mode accepts exactly what those files add: without them the same requests depart.
import {readdirSync, readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

import {beforeAll, describe, expect, it} from 'vitest'

import {Contract} from './contract.js'
import {newerBeside} from './contract-newer.js'

const SPEC = fileURLToPath(new URL('../../../contract/2026-10.openapi.json', import.meta.url))
const CHANGES = fileURLToPath(new URL('../../../contract/changes/', import.meta.url))
const DOCS = fileURLToPath(new URL('../../../docs/contract.md', import.meta.url))
const ID = '1dbfc517-0bbf-4301-9ba8-555ca42b9737'

/** The rows of the table of changes since the snapshot: its PR (null for —) and the departure it names. */
function rows(): Array<{pr: number | null; departure: string}> {
  const text = readFileSync(DOCS, 'utf8')
  const table = text.slice(text.indexOf('| PR | Merged | Change |')).split('\n\n')[0]!
  return table
    .split('\n')
    .slice(2)
    .map((line) => {
      const cells = line.split(' | ')
      const pr = /^\| #(\d+)$/.exec(cells[0]!)?.[1]
      const departure = /`contract\/changes\/([^`]+)`/.exec(cells.at(-1)!)?.[1] ?? 'none'
      return {pr: pr ? Number(pr) : null, departure}
    })
}

describe('changes since the snapshot', () => {
  let withChanges: Contract
  let without: Contract
  beforeAll(() => {
    const document = JSON.parse(readFileSync(SPEC, 'utf8'))
    withChanges = new Contract(document, newerBeside(SPEC))
    without = new Contract(document, {...newerBeside(SPEC), changes: []})
  })
  const check = (contract: Contract, method: string, path: string, body: unknown) =>
    contract.checkRequest({method, path, query: new URLSearchParams(), headers: {}, body, hasBody: true})

  it('docs/contract.md has a row for each file of contract/changes/, with its pull request, and names no other file', () => {
    const files = readdirSync(CHANGES).filter((f) => f.endsWith('.json'))
    const named = rows().filter((r) => r.departure !== 'none')
    expect(named.map((r) => r.departure).sort()).toEqual(files.sort())
    for (const {pr, departure} of named) {
      const change = JSON.parse(readFileSync(`${CHANGES}${departure}`, 'utf8'))
      expect(change.pr, departure).toBe(pr)
      expect(change.source, departure).toMatch(/\w{3,}/)
    }
    // one row per line: every line of the table is a whole row
    for (const row of rows()) expect(row.pr === null || row.pr > 10_000).toBe(true)
  })

  it('a units change of a subscription is in the contract only with its change (SubscriptionUpdateUnits)', () => {
    const body = {units: 3, proration_behavior: 'invoice'}
    expect(check(withChanges, 'PATCH', `/v1/subscriptions/${ID}`, body)).toMatchObject({violations: []})
    expect(check(withChanges, 'PATCH', `/v1/subscriptions/${ID}`, body).refusal).toBeUndefined()
    const departs = check(without, 'PATCH', `/v1/subscriptions/${ID}`, body)
    expect(departs.refusal !== undefined || departs.violations.length > 0).toBe(true)
  })

  const answer = (contract: Contract, id: string, body: unknown) => {
    const status = id.includes('create') ? 201 : 200
    return contract.checkAnswer(contract.operation(id)!, {status, contentType: 'application/json', body})
  }

  it("a webhook endpoint's api_version and signing way are in the contract only with their changes (#14141, #14117)", () => {
    const body = {url: 'https://example.com/hooks', format: 'raw', events: ['order.paid'], api_version: '2026-04'}
    expect(check(withChanges, 'POST', '/v1/webhooks/endpoints', body)).toMatchObject({violations: []})
    const departs = check(without, 'POST', '/v1/webhooks/endpoints', body)
    expect(departs.refusal !== undefined || departs.violations.length > 0).toBe(true)
    const endpoint = {
      id: ID,
      created_at: '2026-10-01T00:00:00Z',
      modified_at: null,
      url: 'https://example.com/hooks',
      format: 'raw',
      name: null,
      secret: `whsec_${'A'.repeat(43)}=`,
      organization_id: ID,
      events: ['order.paid'],
      enabled: true,
      api_version: '2026-10',
      uses_standard_webhook_signature: true,
    }
    expect(answer(withChanges, 'webhooks:create_webhook_endpoint', endpoint)).toEqual([])
    // an answer may carry fields its schema lacks: the changes are what give these two their types
    const wrong = {...endpoint, api_version: 2026, uses_standard_webhook_signature: 'yes'}
    const violations = answer(withChanges, 'webhooks:create_webhook_endpoint', wrong).map((v) => v.schemaPath)
    expect(violations.some((p) => p.includes('api_version'))).toBe(true)
    expect(violations.some((p) => p.includes('uses_standard_webhook_signature'))).toBe(true)
    expect(answer(without, 'webhooks:create_webhook_endpoint', wrong)).toEqual([])
  })

  it("a merchant's own secret is in the contract only with its change (#14400)", () => {
    const body = {url: 'https://example.com/hooks', format: 'raw', events: ['order.paid'], secret: 'x'.repeat(32)}
    expect(check(withChanges, 'POST', '/v1/webhooks/endpoints', body)).toMatchObject({violations: []})
    const departs = check(without, 'POST', '/v1/webhooks/endpoints', body)
    expect(departs.refusal !== undefined || departs.violations.length > 0).toBe(true)
  })

  it('the system event subscription.migrated is an answer of the Events API only with its change (#14508)', () => {
    const event = {
      id: ID,
      timestamp: '2026-10-01T00:00:00Z',
      organization_id: ID,
      customer_id: ID,
      customer: null,
      external_customer_id: null,
      label: 'Subscription Migrated',
      source: 'system',
      name: 'subscription.migrated',
      metadata: {subscription_id: ID, provider: 'stripe', provider_subscription_id: 'sub_1A', product_id: ID},
    }
    expect(answer(withChanges, 'events:get', event)).toEqual([])
    expect(answer(without, 'events:get', event).length).toBeGreaterThan(0)
  })

  it('subscription.migrated is an event type an endpoint takes only with its change', () => {
    const body = {url: 'https://example.com/hooks', format: 'raw', events: ['subscription.migrated']}
    expect(check(withChanges, 'POST', '/v1/webhooks/endpoints', body).refusal).toBeUndefined()
    expect(check(without, 'POST', '/v1/webhooks/endpoints', body).refusal?.[0]).toMatchObject({loc: ['body', 'events', 0]})
  })
})
