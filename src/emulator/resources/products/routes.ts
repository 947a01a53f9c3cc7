// Products and their prices (server/polar/product/endpoints.py, server/polar/product/schemas.py).
import {z} from '../../core/zod.js'

import {CURRENCIES} from '../../../client/currencies.js'
import {domainError, ruleValidation} from '../../core/errors.js'
import {checkOrganization, emit, noContent, ok, type Ctx, type Router} from '../../core/http.js'
import {uuid} from '../../core/ids.js'
import {byField, textSearch} from '../../core/list.js'
import {finder, getRoute, listRoute, organizationScope, pathId} from '../../core/toolkit.js'
import type {PriceRecord, ProductRecord} from './model.js'
import * as present from './present.js'
import {checkRefusal} from './refusals.js'
import {metadataSchema, parse} from '../../core/validate.js'
import {minimumAmount} from './amounts.js'

const MAX_AMOUNT = 99_999_999
const amount = () => z.int().min(0).max(MAX_AMOUNT)
// The service takes its presentment currencies only (an enum: 422 `enum` for anything else).
const currency = z.enum([...CURRENCIES] as [string, ...string[]]).default('usd')

const priceCreate = z.discriminatedUnion('amount_type', [
  z.object({
    amount_type: z.literal('fixed'),
    price_amount: amount(),
    price_currency: currency,
    tax_behavior: z.enum(['location', 'inclusive', 'exclusive']).nullish(),
  }),
  z.object({
    amount_type: z.literal('custom'),
    minimum_amount: amount().default(50),
    maximum_amount: amount().nullish(),
    preset_amount: amount().nullish(),
    price_currency: currency,
    tax_behavior: z.enum(['location', 'inclusive', 'exclusive']).nullish(),
  }),
  z.object({amount_type: z.literal('free'), price_currency: currency}),
  z.object({
    amount_type: z.literal('seat_based'),
    price_currency: currency,
    tax_behavior: z.enum(['location', 'inclusive', 'exclusive']).nullish(),
    seat_tiers: z.object({
      seat_tier_type: z.enum(['volume', 'graduated']).default('volume'),
      tiers: z.array(z.object({min_seats: z.int().min(1), max_seats: z.int().min(1).nullish(), price_per_seat: amount()})).min(1),
    }),
  }),
  z.object({
    amount_type: z.literal('metered_unit'),
    meter_id: z.uuid(),
    // a decimal of minor units per unit, up to 12 decimal places; given as a number or a string
    unit_amount: z
      .union([z.number(), z.string().regex(/^\d+(\.\d{1,12})?$/)])
      .transform(Number)
      .pipe(z.number().gt(0)),
    cap_amount: amount().nullish(),
    price_currency: currency,
    tax_behavior: z.enum(['location', 'inclusive', 'exclusive']).nullish(),
  }),
])
type PriceCreate = z.output<typeof priceCreate>

const interval = z.enum(['day', 'week', 'month', 'year'])
const visibility = z.enum(['draft', 'private', 'public'])

const productCreate = z.object({
  name: z.string().min(3).max(64),
  description: z.string().nullish(),
  recurring_interval: interval.nullish(),
  recurring_interval_count: z.int().min(1).max(999).nullish(),
  visibility: visibility.default('public'),
  prices: z.array(priceCreate).min(1),
  metadata: metadataSchema.default({}),
  organization_id: z.uuid().nullish(),
  medias: z.array(z.uuid()).nullish(),
  attached_custom_fields: z.array(z.object({custom_field_id: z.uuid(), required: z.boolean()})).nullish(),
})

const productUpdate = z.object({
  name: z.string().min(3).max(64).nullish(),
  description: z.string().nullish(),
  recurring_interval: interval.nullish(),
  recurring_interval_count: z.int().min(1).max(999).nullish(),
  visibility: visibility.nullish(),
  is_archived: z.boolean().nullish(),
  metadata: metadataSchema.nullish(),
  prices: z.array(z.union([z.object({id: z.uuid()}).strict(), priceCreate])).nullish(),
  medias: z.array(z.uuid()).nullish(),
  attached_custom_fields: z.array(z.object({custom_field_id: z.uuid(), required: z.boolean()})).nullish(),
})

const benefitsUpdate = z.object({benefits: z.array(z.uuid())})

function newPrice(input: PriceCreate, productId: string, now: string): PriceRecord {
  const base = {
    id: uuid(),
    created_at: now,
    modified_at: null,
    source: 'catalog' as const,
    price_currency: input.price_currency,
    tax_behavior: 'tax_behavior' in input ? (input.tax_behavior ?? null) : null,
    is_archived: false,
    product_id: productId,
  }
  if (input.amount_type === 'metered_unit') {
    return {...base, amount_type: 'metered_unit', unit_amount: decimalText(input.unit_amount), cap_amount: input.cap_amount ?? null, meter_id: input.meter_id}
  }
  if (input.amount_type === 'seat_based') {
    const tiers = sortedTiers(input.seat_tiers.tiers)
    return {
      ...base,
      amount_type: 'seat_based',
      seat_tiers: {
        seat_tier_type: input.seat_tiers.seat_tier_type,
        tiers,
        minimum_seats: tiers[0]!.min_seats,
        maximum_seats: tiers[tiers.length - 1]!.max_seats,
      },
    }
  }
  if (input.amount_type === 'custom') {
    return {
      ...base,
      amount_type: 'custom',
      minimum_amount: input.minimum_amount,
      maximum_amount: input.maximum_amount ?? null,
      preset_amount: input.preset_amount ?? null,
    }
  }
  return {...base, amount_type: 'fixed', price_amount: input.amount_type === 'fixed' ? input.price_amount : 0}
}

type TierInput = {min_seats: number; max_seats?: number | null; price_per_seat: number}

/** Seat tiers by their first seat, as the service keeps them. */
function sortedTiers(tiers: TierInput[]) {
  return [...tiers]
    .sort((a, b) => a.min_seats - b.min_seats)
    .map((t) => ({min_seats: t.min_seats, max_seats: t.max_seats ?? null, price_per_seat: t.price_per_seat}))
}

/** Seat tiers form one range without gaps or overlaps, and only the last may be unlimited (the service's 422). */
function checkSeatTiers(input: PriceCreate, index: number): void {
  if (input.amount_type !== 'seat_based') return
  const tiers = sortedTiers(input.seat_tiers.tiers)
  const at = ['body', 'prices', index, 'seat_tiers', 'tiers']
  tiers.forEach((t, i) => {
    const next = tiers[i + 1]
    if (t.max_seats !== null && t.max_seats < t.min_seats) {
      throw ruleValidation(at, `Value error, a tier's max_seats (${t.max_seats}) is below its min_seats (${t.min_seats})`, input.seat_tiers.tiers)
    }
    if (!next) return
    if (t.max_seats === null) throw ruleValidation(at, 'Value error, Only the last tier can have unlimited max_seats (None)', input.seat_tiers.tiers)
    if (next.min_seats !== t.max_seats + 1) {
      throw ruleValidation(
        at,
        `Value error, Gap or overlap between tiers: tier ending at ${t.max_seats} and tier starting at ${next.min_seats}`,
        input.seat_tiers.tiers,
      )
    }
  })
}

/** A unit amount as the service writes decimals: no exponent, no trailing zeros. */
function decimalText(n: number): string {
  return n.toFixed(12).replace(/\.?0+$/, '')
}

/** Metered prices belong to recurring products and name an existing meter (server/polar/product/schemas.py). */
function checkMetered(ctx: Ctx, prices: unknown[] | null | undefined, recurring: boolean): void {
  prices?.forEach((p, i) => {
    if (typeof p !== 'object' || p === null || (p as {amount_type?: unknown}).amount_type !== 'metered_unit') return
    const meterId = (p as {meter_id: string}).meter_id
    if (!recurring) throw ruleValidation(['body', 'prices', i], 'Metered prices are only allowed on recurring products.')
    if (!ctx.store.data.meters.some((m) => m.id === meterId)) throw ruleValidation(['body', 'prices', i, 'meter_id'], 'Meter does not exist.', meterId)
  })
}

/** At most one fixed price, or one custom price alone (server/polar/product/schemas.py); at most one seat-based price, which a fixed price may join. */
function checkPriceMix(prices: PriceRecord[]): void {
  const active = prices.filter((p) => !p.is_archived)
  const fixed = active.filter((p) => p.amount_type === 'fixed').length
  const custom = active.filter((p) => p.amount_type === 'custom').length
  const seats = active.filter((p) => p.amount_type === 'seat_based').length
  if (fixed > 1 || custom > 1 || (custom === 1 && fixed > 0)) {
    throw ruleValidation(['body', 'prices'], 'A product can have at most one fixed price, or a single custom price.')
  }
  if (seats > 1) throw ruleValidation(['body', 'prices'], 'Only one seat-based price is allowed.')
  if (seats > 0 && custom > 0) throw ruleValidation(['body', 'prices'], 'A custom price cannot be combined with a fixed, seat-based or unit-based price.')
  const currencies = new Set(active.map((p) => p.price_currency))
  if (currencies.size > 1) throw ruleValidation(['body', 'prices'], 'All prices of a product must use the same currency.')
}

function checkCustomBounds(input: PriceCreate, index: number): void {
  if (input.amount_type !== 'custom') return
  const {minimum_amount: min, maximum_amount: max, preset_amount: preset} = input
  if (max !== null && max !== undefined && max < min) {
    throw ruleValidation(['body', 'prices', index, 'maximum_amount'], 'Maximum amount must be greater than or equal to the minimum amount.', max)
  }
  if (preset !== null && preset !== undefined && (preset < min || (max !== null && max !== undefined && preset > max))) {
    throw ruleValidation(['body', 'prices', index, 'preset_amount'], 'Preset amount must be between the minimum and maximum amounts.', preset)
  }
}

export const findProduct = finder('products')

const priceAmount = (p: ProductRecord): number | null => {
  const price = p.prices.find((x) => !x.is_archived)
  if (!price || price.amount_type === 'metered_unit') return null
  return minimumAmount(price)
}

/** Custom fields to attach, each existing in the organization, in the order given. */
function attachedFields(ctx: Ctx, list: Array<{custom_field_id: string; required: boolean}> | null | undefined) {
  return (list ?? []).map((a, i) => {
    if (!ctx.store.get('custom_fields', a.custom_field_id))
      throw ruleValidation(['body', 'attached_custom_fields', i, 'custom_field_id'], 'Custom field does not exist.', a.custom_field_id)
    return {custom_field_id: a.custom_field_id, required: a.required}
  })
}

export function register(r: Router): void {
  listRoute(r, 'products:list', (ctx: Ctx) => ctx.store.all('products'), {
    present: present.product,
    filters: {
      id: byField('uuid', (p: ProductRecord) => p.id),
      organization_id: organizationScope,
      query: textSearch((p: ProductRecord) => p.name),
      is_archived: byField('bool', (p: ProductRecord) => p.is_archived),
      is_recurring: byField('bool', (p: ProductRecord) => p.recurring_interval !== null),
      benefit_id: {type: 'uuid', match: (p: ProductRecord, values) => values.some((v) => p.benefit_ids.includes(String(v)))},
      visibility: byField(['draft', 'private', 'public'], (p: ProductRecord) => p.visibility),
    },
    sorts: {
      created_at: (p) => p.created_at,
      name: (p) => p.name.toLowerCase(),
      price_amount_type: (p) => p.prices.find((x) => !x.is_archived)?.amount_type ?? null,
      price_amount: priceAmount,
    },
    defaultSort: ['-created_at'],
    metadata: (p) => p.metadata,
  })

  r.post('/products/', 'organization', (ctx) => {
    const input = parse(productCreate, ctx.body)
    checkOrganization(ctx, input.organization_id)
    checkRefusal(ctx.env, input.name)
    input.prices.forEach(checkCustomBounds)
    input.prices.forEach(checkSeatTiers)
    checkMetered(ctx, input.prices, Boolean(input.recurring_interval))
    if (input.recurring_interval_count && !input.recurring_interval) {
      throw ruleValidation(['body', 'recurring_interval_count'], 'recurring_interval_count requires recurring_interval.', input.recurring_interval_count)
    }
    const product = ctx.store.write(() => {
      const now = new Date(ctx.now).toISOString()
      const id = uuid()
      const row: ProductRecord = {
        id,
        created_at: now,
        modified_at: null,
        name: input.name,
        description: input.description ?? null,
        visibility: input.visibility,
        recurring_interval: input.recurring_interval ?? null,
        recurring_interval_count: input.recurring_interval ? (input.recurring_interval_count ?? 1) : null,
        is_archived: false,
        metadata: input.metadata,
        prices: input.prices.map((p) => newPrice(p, id, now)),
        benefit_ids: [],
        attached_custom_fields: attachedFields(ctx, input.attached_custom_fields),
      }
      checkPriceMix(row.prices)
      return ctx.store.insert('products', row)
    })
    const body = present.product(ctx.view, product)
    emit(ctx.env, 'product.created', body)
    return ok(body, 201)
  })

  getRoute(r, 'products:get', findProduct, present.product)

  r.patch('/products/:id', 'organization', (ctx) => {
    const id = pathId(ctx)
    const input = parse(productUpdate, ctx.body)
    const current = findProduct(ctx, id)
    checkRefusal(ctx.env, current.name)
    input.prices?.forEach((p, i) => {
      if (!('amount_type' in p)) return
      checkCustomBounds(p, i)
      checkSeatTiers(p, i)
    })
    checkMetered(ctx, input.prices, Boolean(input.recurring_interval ?? current.recurring_interval))
    const product = ctx.store.write(() => {
      const p = findProduct(ctx, id)
      const now = new Date(ctx.now).toISOString()
      if (input.prices) {
        const keep = new Set<string>()
        const added: PriceRecord[] = []
        input.prices.forEach((entry, i) => {
          if ('amount_type' in entry) added.push(newPrice(entry, p.id, now))
          else if (p.prices.some((x) => x.id === entry.id)) keep.add(entry.id)
          else throw ruleValidation(['body', 'prices', i, 'id'], 'Price does not exist.', entry.id)
        })
        const next = [...p.prices.map((x) => (keep.has(x.id) ? x : {...x, is_archived: true, modified_at: x.is_archived ? x.modified_at : now})), ...added]
        checkPriceMix(next)
        if (next.every((x) => x.is_archived)) throw ruleValidation(['body', 'prices'], 'A product must have at least one active price.')
        p.prices = next
      }
      if (input.name) p.name = input.name
      if (input.description !== undefined) p.description = input.description
      if (input.visibility) p.visibility = input.visibility
      if (input.is_archived !== undefined && input.is_archived !== null) p.is_archived = input.is_archived
      if (input.metadata) p.metadata = input.metadata
      if (input.attached_custom_fields) p.attached_custom_fields = attachedFields(ctx, input.attached_custom_fields)
      if (input.recurring_interval) {
        if (!p.recurring_interval) throw ruleValidation(['body', 'recurring_interval'], 'A one-time product cannot become recurring.', input.recurring_interval)
        p.recurring_interval = input.recurring_interval
      }
      if (input.recurring_interval_count && p.recurring_interval) p.recurring_interval_count = input.recurring_interval_count
      p.modified_at = now
      return p
    })
    const body = present.product(ctx.view, product)
    emit(ctx.env, 'product.updated', body)
    return ok(body)
  })

  r.post('/products/:id/benefits', 'organization', (ctx) => {
    const id = pathId(ctx)
    const input = parse(benefitsUpdate, ctx.body)
    findProduct(ctx, id)
    input.benefits.forEach((b, i) => {
      if (!ctx.store.get('benefits', b)) throw ruleValidation(['body', 'benefits', i], 'Benefit does not exist.', b)
    })
    const product = ctx.store.write(() => {
      const p = findProduct(ctx, id)
      p.benefit_ids = [...new Set(input.benefits)]
      p.modified_at = new Date(ctx.now).toISOString()
      return p
    })
    const body = present.product(ctx.view, product)
    emit(ctx.env, 'product.updated', body)
    return ok(body)
  })

  r.delete('/products/:id', 'organization', (ctx) => {
    const id = pathId(ctx)
    const product = findProduct(ctx, id)
    if (!present.product(ctx.view, product).is_deletable) {
      throw domainError(409, 'ProductNotDeletable', 'This product has orders, subscriptions or discounts and cannot be deleted. Archive it instead.')
    }
    ctx.store.write(() => ctx.store.remove('products', id))
    return noContent()
  })
}
