// The key-subset check itself: it must catch what SDK parsing lets through (unknown keys are stripped).
import {describe, expect, it} from 'vitest'

import {CheckoutOrganization$inboundSchema} from '@polar-sh/sdk/models/components/checkoutorganization.js'

import {expectKeysSubset, lostKeys} from './harness.js'

const organization = {
  created_at: '2026-01-01T00:00:00Z', modified_at: null, id: '3f0c0d6e-8f43-4a53-9d49-0f8f1f0c7b11', name: 'Acme', slug: 'acme',
  avatar_url: null, proration_behavior: 'prorate', allow_customer_updates: true,
}

describe('lostKeys', () => {
  it('matches snake_case keys with their camelCase names, through arrays, and stops at dates', () => {
    const raw = {created_at: 'x', items: [{client_secret: 's', extra: 1}], when: '2026-01-01T00:00:00Z'}
    const parsed = {createdAt: 'x', items: [{clientSecret: 's'}], when: new Date('2026-01-01T00:00:00Z')}
    expect(lostKeys(raw, parsed)).toEqual(['items[0].extra'])
  })

  it('keeps the keys of free-form maps (metadata) as they are', () => {
    expect(lostKeys({metadata: {plan_tier: 'pro'}}, {metadata: {plan_tier: 'pro'}})).toEqual([])
  })
})

describe('expectKeysSubset with an SDK model', () => {
  it('passes an answer with only the model keys', () => {
    expectKeysSubset(CheckoutOrganization$inboundSchema, organization)
  })

  it('fails on an organization-side key the SDK would strip silently', () => {
    const leaked = {...organization, metadata: {internal: 'yes'}}
    expect(() => CheckoutOrganization$inboundSchema.parse(leaked)).not.toThrow()
    expect(() => expectKeysSubset(CheckoutOrganization$inboundSchema, leaked)).toThrow(/metadata/)
  })
})
