// Contract: products and benefits through the SDK (every list page, get, create, update, archive,
// benefits of a product, benefit grants, and the typed errors).
import {describe, expect, it} from 'vitest'

import {ResourceNotFound} from '@polar-sh/sdk-0.49/models/errors/resourcenotfound.js'
import {HTTPValidationError} from '@polar-sh/sdk-0.49/models/errors/httpvalidationerror.js'

import {allowRefusals} from '../helpers/contract.js'
import {unknownId} from '../helpers/emulator.js'
import {collect, rejection, useContract} from './harness-0.49.js'

const h = useContract()

describe('products', () => {
  it('lists every page, and the total matches what was iterated', async () => {
    const {items, totalCount, pages} = await collect(await h.polar.products.list({limit: 5}))
    expect(items.length).toBe(totalCount)
    expect(pages).toBe(Math.ceil(totalCount / 5))
    expect(new Set(items.map((p) => p.id)).size).toBe(totalCount)
    // The seeded catalog holds every price type the SDK models, and every benefit type.
    const types = new Set(items.flatMap((p) => p.prices.map((price) => price.amountType)))
    for (const t of ['fixed', 'custom', 'seat_based', 'metered_unit']) expect(types, t).toContain(t)
    const benefitTypes = new Set(items.flatMap((p) => p.benefits.map((b) => b.type)))
    expect(benefitTypes).toContain('discord')
  })

  it('filters on is_recurring, and archived products show with is_archived', async () => {
    const oneTime = await collect(await h.polar.products.list({isRecurring: false, limit: 100}))
    expect(oneTime.items.length).toBeGreaterThan(0)
    expect(oneTime.items.every((p) => !p.isRecurring && p.recurringInterval === null)).toBe(true)
    const archived = await collect(await h.polar.products.list({isArchived: true, limit: 100}))
    expect(archived.items.every((p) => p.isArchived)).toBe(true)
  })

  it('creates a recurring product and gets it back with what was sent', async () => {
    const created = await h.polar.products.create({
      name: 'Contract Plan',
      description: 'Made by the contract test.',
      recurringInterval: 'month',
      prices: [{amountType: 'fixed', priceAmount: 1234, priceCurrency: 'usd'}],
      metadata: {source: 'contract', n: 3},
    })
    expect(created.name).toBe('Contract Plan')
    expect(created.recurringInterval).toBe('month')
    expect(created.isRecurring).toBe(true)
    expect(created.metadata).toEqual({source: 'contract', n: 3})
    const price = created.prices[0]!
    expect(price.amountType === 'fixed' && 'priceAmount' in price ? price.priceAmount : null).toBe(1234)
    const got = await h.polar.products.get({id: created.id})
    expect(got.id).toBe(created.id)
    expect(got.description).toBe('Made by the contract test.')
  })

  it('creates a one-time product with a custom price, renames, archives and restores it', async () => {
    const created = await h.polar.products.create({
      name: 'Contract Tip Jar',
      prices: [{amountType: 'custom', minimumAmount: 200, presetAmount: 500}],
    })
    expect(created.recurringInterval).toBeNull()
    const price = created.prices[0]!
    expect(price.amountType).toBe('custom')
    const renamed = await h.polar.products.update({id: created.id, productUpdate: {name: 'Contract Tip Jar 2'}})
    expect(renamed.name).toBe('Contract Tip Jar 2')
    const archived = await h.polar.products.update({id: created.id, productUpdate: {isArchived: true}})
    expect(archived.isArchived).toBe(true)
    const restored = await h.polar.products.update({id: created.id, productUpdate: {isArchived: false}})
    expect(restored.isArchived).toBe(false)
  })

  it('replaces the benefits of a product', async () => {
    const product = await h.polar.products.create({name: 'Contract Bundle', prices: [{amountType: 'fixed', priceAmount: 500}]})
    const benefits = await collect(await h.polar.benefits.list({limit: 100}))
    const chosen = benefits.items.slice(0, 2).map((b) => b.id)
    const updated = await h.polar.products.updateBenefits({id: product.id, productBenefitsUpdate: {benefits: chosen}})
    expect(updated.benefits.map((b) => b.id).sort()).toEqual([...chosen].sort())
  })

  it('answers ResourceNotFound for an unknown product and HTTPValidationError for a bad body', async () => {
    const missing = await rejection(h.polar.products.get({id: unknownId()}))
    expect(missing).toBeInstanceOf(ResourceNotFound)
    allowRefusals() // a body the service refuses, on purpose
    const invalid = await rejection(h.polar.products.create({name: 'x', recurringInterval: 'month', prices: []}))
    expect(invalid).toBeInstanceOf(HTTPValidationError)
    expect(JSON.stringify((invalid as HTTPValidationError).data$.detail)).toContain('name')
  })
})

describe('benefits', () => {
  it('lists every page with each benefit type the SDK knows', async () => {
    const {items, totalCount} = await collect(await h.polar.benefits.list({limit: 3}))
    expect(items.length).toBe(totalCount)
    const types = new Set(items.map((b) => b.type))
    for (const t of ['custom', 'license_keys', 'downloadables', 'discord', 'github_repository', 'feature_flag', 'meter_credit']) expect(types, t).toContain(t)
  })

  it('creates, gets, updates and deletes a custom benefit', async () => {
    const created = await h.polar.benefits.create({type: 'custom', description: 'Contract perk', properties: {note: 'hello'}, metadata: {k: 'v'}})
    expect(created.type).toBe('custom')
    expect(created.description).toBe('Contract perk')
    expect(created.type === 'custom' ? created.properties.note : null).toBe('hello')
    const got = await h.polar.benefits.get({id: created.id})
    expect(got.metadata).toEqual({k: 'v'})
    const updated = await h.polar.benefits.update({id: created.id, requestBody: {type: 'custom', description: 'Contract perk 2'}})
    expect(updated.description).toBe('Contract perk 2')
    await h.polar.benefits.delete({id: created.id})
    const gone = await rejection(h.polar.benefits.get({id: created.id}))
    expect(gone).toBeInstanceOf(ResourceNotFound)
  })

  it('lists the grants of a benefit and of the organization, all pages', async () => {
    const benefits = await collect(await h.polar.benefits.list({limit: 100}))
    const licenseKeys = benefits.items.find((b) => b.type === 'license_keys')!
    const grants = await collect(await h.polar.benefits.grants({id: licenseKeys.id, limit: 10}))
    expect(grants.items.length).toBe(grants.totalCount)
    expect(grants.totalCount).toBeGreaterThan(0)
    const all = await collect(await h.polar.benefitGrants.list({limit: 50}))
    expect(all.items.length).toBe(all.totalCount)
    expect(all.items.filter((g) => g.benefit.id === licenseKeys.id).length).toBe(grants.totalCount)
  })
})
