// The harnesses' own checks. SDK 1.0.1 (harness.ts): the shape check reads the SDK's declarations, and
// catches what its casts let through (missing keys, keys the type lacks, in nested objects and arrays).
// SDK 0.49 (harness-0.49.ts): the key-subset check catches what zod parsing strips silently.
import {describe, expect, it} from 'vitest'

import {CheckoutOrganization$inboundSchema} from '@polar-sh/sdk-0.49/models/components/checkoutorganization.js'

import {expectKeysSubset, lostKeys} from './harness-0.49.js'
import {sdkFields, shapeProblems} from './harness.js'

const organization = {
  created_at: '2026-01-01T00:00:00Z',
  modified_at: null,
  id: '3f0c0d6e-8f43-4a53-9d49-0f8f1f0c7b11',
  name: 'Acme',
  slug: 'acme',
  avatar_url: null,
  proration_behavior: 'prorate',
  allow_customer_updates: true,
}

describe('SDK 1.0.1 types as data', () => {
  it("reads each version's own interface: member_id from 2026-10, the subscription of a validated key from 2027-01", () => {
    const names = (version: '2026-04' | '2026-10' | '2027-01', type: string) => sdkFields(version, type)!.map((f) => f.name)
    expect(names('2026-04', 'LicenseKeyRead')).not.toContain('member_id')
    expect(names('2026-10', 'LicenseKeyRead')).toEqual(expect.arrayContaining(['member_id', 'member']))
    expect(names('2026-10', 'ValidatedLicenseKey')).not.toContain('subscription_id')
    expect(names('2027-01', 'ValidatedLicenseKey')).toEqual(expect.arrayContaining(['subscription_id', 'subscription', 'order_id', 'order']))
    expect(sdkFields('2026-10', 'WebhookEndpoint')!.find((f) => f.name === 'api_version')).toEqual({name: 'api_version', optional: false, type: 'string'})
    expect(sdkFields('2026-10', 'NoSuchThing')).toBeUndefined()
  })

  it('names missing keys and keys the type lacks, through nullable nested objects and arrays', () => {
    const member = {id: 'm', email: 'a@example.com', external_id: null}
    expect(shapeProblems('2026-10', 'LicenseKeyMember', member)).toEqual([])
    expect(shapeProblems('2026-10', 'LicenseKeyMember', {id: 'm', email: 'a@example.com', extra: 1})).toEqual([
      'external_id: missing',
      'extra: not in LicenseKeyMember',
    ])
    const list = {items: [{activations: 1}], pagination: {total_count: 1, max_page: 1, page: 1}}
    const problems = shapeProblems('2026-10', 'ListResourceLicenseKeyRead', list)
    expect(problems).toContain('items[0].id: missing')
    expect(problems).toContain('items[0].activations: not in LicenseKeyRead')
    expect(problems).toContain('pagination.page: not in Pagination')
  })
})

describe('SDK 0.49: lostKeys', () => {
  it('matches snake_case keys with their camelCase names, through arrays, and stops at dates', () => {
    const raw = {created_at: 'x', items: [{client_secret: 's', extra: 1}], when: '2026-01-01T00:00:00Z'}
    const parsed = {createdAt: 'x', items: [{clientSecret: 's'}], when: new Date('2026-01-01T00:00:00Z')}
    expect(lostKeys(raw, parsed)).toEqual(['items[0].extra'])
  })

  it('keeps the keys of free-form maps (metadata) as they are', () => {
    expect(lostKeys({metadata: {plan_tier: 'pro'}}, {metadata: {plan_tier: 'pro'}})).toEqual([])
  })
})

describe('SDK 0.49: expectKeysSubset with an SDK model', () => {
  it('passes an answer with only the model keys', () => {
    expectKeysSubset(CheckoutOrganization$inboundSchema, organization)
  })

  it('fails on an organization-side key the SDK would strip silently', () => {
    const leaked = {...organization, metadata: {internal: 'yes'}}
    expect(() => CheckoutOrganization$inboundSchema.parse(leaked)).not.toThrow()
    expect(() => expectKeysSubset(CheckoutOrganization$inboundSchema, leaked)).toThrow(/metadata/)
  })
})
