// Discounts (server/polar/discount): list, get, create, update, delete (a soft delete); each change sends
// its webhook event (discount.created, discount.updated, discount.deleted; server/polar/webhook/webhooks.py).
import {z} from '../../core/zod.js'

import {CURRENCIES} from '../../../client/currencies.js'

import {requestValidation, ruleValidation} from '../../core/errors.js'
import {emit, noContent, ok, type Ctx, type Router} from '../../core/http.js'
import {uuid} from '../../core/ids.js'
import {textSearch} from '../../core/list.js'
import {finder, getRoute, listRoute, organizationScope, pathId} from '../../core/toolkit.js'
import {metadataSchema, parse} from '../../core/validate.js'
import {live} from './apply.js'
import type {DiscountRecord} from './model.js'
import * as present from './present.js'

const code = z
  .string()
  .min(3)
  .max(256)
  .regex(/^[a-zA-Z0-9]+$/, "String should match pattern '^[a-zA-Z0-9]+$'")
const common = {
  metadata: metadataSchema.default({}),
  name: z.string().min(1),
  code: code.nullish(),
  starts_at: z.iso.datetime({offset: true}).nullish(),
  ends_at: z.iso.datetime({offset: true}).nullish(),
  max_redemptions: z.int().gte(1).nullish(),
  max_redemptions_per_customer: z.int().gte(1).lte(2_147_483_647).nullish(),
  products: z.array(z.uuid()).nullish(),
  organization_id: z.uuid().nullish(),
  duration: z.enum(['once', 'forever', 'repeating']),
  duration_in_months: z.int().gte(1).lte(999).nullish(),
}
const basisPoints = z.int().gte(1).lte(10_000)
// the service's presentment currencies, as products take them (a discount in "zzz" is refused too)
const currency = z.enum([...CURRENCIES] as [string, ...string[]])
const amounts = z.record(z.string().pipe(currency), z.int().gte(0).lte(99_999_999))
const discountCreate = z.discriminatedUnion('type', [
  z.object({...common, type: z.literal('percentage'), basis_points: basisPoints}),
  z.object({...common, type: z.literal('fixed'), amount: z.int().gte(0).nullish(), currency: currency.nullish(), amounts: amounts.nullish()}),
])
const discountUpdate = z.object({
  metadata: metadataSchema.optional(),
  name: z.string().min(1).nullish(),
  code: code.nullish(),
  starts_at: z.iso.datetime({offset: true}).nullish(),
  ends_at: z.iso.datetime({offset: true}).nullish(),
  max_redemptions: z.int().gte(1).nullish(),
  max_redemptions_per_customer: z.int().gte(1).lte(2_147_483_647).nullish(),
  duration: z.enum(['once', 'forever', 'repeating']).nullish(),
  duration_in_months: z.int().gte(1).lte(999).nullish(),
  type: z.enum(['fixed', 'percentage']).nullish(),
  amount: z.int().gte(0).nullish(),
  currency: currency.nullish(),
  amounts: amounts.nullish(),
  basis_points: basisPoints.nullish(),
  products: z.array(z.uuid()).nullish(),
})

/** The service's model check: a discount starts before it ends. */
function checkPeriod(ctx: Ctx, startsAt: string | null | undefined, endsAt: string | null | undefined): void {
  if (startsAt && endsAt && Date.parse(startsAt) >= Date.parse(endsAt)) {
    throw requestValidation([{type: 'value_error', loc: ['body'], msg: 'Value error, starts_at must be before ends_at', input: ctx.body}])
  }
}

const iso = (value: string | null | undefined) => (value ? new Date(value).toISOString() : null)

const findDiscount = finder('discounts', {live: (d) => d.deleted_at === null})

function checkCode(ctx: Ctx, value: string | null | undefined, self?: string): void {
  if (!value) return
  const taken = live(ctx).find((d) => d.code !== null && d.code.toUpperCase() === value.toUpperCase() && d.id !== self)
  if (taken) throw ruleValidation(['body', 'code'], 'Discount with this code already exists.', value)
}

function checkProducts(ctx: Ctx, ids: string[]): string[] {
  ids.forEach((id, i) => {
    if (!ctx.store.get('products', id)) throw ruleValidation(['body', 'products', i], 'Product not found.', id)
  })
  return [...new Set(ids)]
}

export function register(r: Router): void {
  listRoute(r, 'discounts:list', live, {
    present: present.discount,
    filters: {
      organization_id: organizationScope,
      query: textSearch(
        (x: DiscountRecord) => x.name,
        (x) => x.code,
      ),
    },
    sorts: {
      created_at: (x) => x.created_at,
      name: (x) => x.name,
      code: (x) => x.code ?? '',
      redemptions_count: (x) => x.redemptions_count,
      ends_at: (x) => x.ends_at ?? '',
    },
    defaultSort: ['-created_at'],
  })
  getRoute(r, 'discounts:get', findDiscount, present.discount)

  r.post('/discounts/', 'organization', (ctx) => {
    const input = parse(discountCreate, ctx.body)
    checkPeriod(ctx, input.starts_at, input.ends_at)
    if (input.duration === 'repeating' && !input.duration_in_months) {
      throw ruleValidation(['body', input.type, 'duration_in_months'], 'Field required', null)
    }
    let fixed: Record<string, number> | null = null
    if (input.type === 'fixed') {
      fixed = input.amount != null && input.currency ? {[input.currency.toLowerCase()]: input.amount} : (input.amounts ?? null)
      if (!fixed || Object.keys(fixed).length === 0) throw ruleValidation(['body', 'fixed', 'amounts'], 'Field required', null)
    }
    const d = ctx.store.write(() => {
      checkCode(ctx, input.code)
      const products = checkProducts(ctx, input.products ?? [])
      return ctx.store.insert('discounts', {
        id: uuid(),
        created_at: new Date(ctx.now).toISOString(),
        modified_at: null,
        metadata: input.metadata,
        name: input.name,
        code: input.code ?? null,
        type: input.type,
        duration: input.duration,
        duration_in_months: input.duration === 'repeating' ? input.duration_in_months! : null,
        basis_points: input.type === 'percentage' ? input.basis_points : null,
        amounts: fixed,
        starts_at: iso(input.starts_at),
        ends_at: iso(input.ends_at),
        max_redemptions: input.max_redemptions ?? null,
        max_redemptions_per_customer: input.max_redemptions_per_customer ?? null,
        redemptions_count: 0,
        product_ids: products,
        deleted_at: null,
      })
    })
    const body = present.discount(ctx.view, d)
    emit(ctx.env, 'discount.created', body)
    return ok(body, 201)
  })

  r.patch('/discounts/:id', 'organization', (ctx) => {
    const id = pathId(ctx)
    const input = parse(discountUpdate, ctx.body)
    const given = (key: string) => Object.hasOwn((ctx.body ?? {}) as object, key)
    const d = ctx.store.write(() => {
      const d = findDiscount(ctx, id)
      if (given('duration') && input.duration !== d.duration) throw ruleValidation(['body', 'duration'], 'Duration cannot be changed.', input.duration)
      if (input.type && input.type !== d.type) throw ruleValidation(['body', 'type'], 'Type cannot be changed.', input.type)
      checkCode(ctx, input.code, d.id)
      const nextAmounts = input.amount != null && input.currency ? {[input.currency.toLowerCase()]: input.amount} : input.amounts
      if (d.redemptions_count > 0) {
        const redeemed = (field: string, value: unknown) =>
          ruleValidation(['body', field], 'This field cannot be changed because the discount has already been redeemed.', value)
        if (d.type === 'percentage' && input.basis_points != null && input.basis_points !== d.basis_points) throw redeemed('basis_points', d.basis_points)
        if (d.type === 'fixed' && nextAmounts && JSON.stringify(nextAmounts) !== JSON.stringify(d.amounts)) throw redeemed('amounts', d.amounts)
      }
      const products = input.products ? checkProducts(ctx, input.products) : null
      if (products) d.product_ids = products
      if (input.metadata) d.metadata = input.metadata
      if (input.name) d.name = input.name
      if (given('code')) d.code = input.code ?? null
      if (given('starts_at')) d.starts_at = iso(input.starts_at)
      if (given('ends_at')) d.ends_at = iso(input.ends_at)
      if (given('max_redemptions')) d.max_redemptions = input.max_redemptions ?? null
      if (given('max_redemptions_per_customer')) d.max_redemptions_per_customer = input.max_redemptions_per_customer ?? null
      if (d.duration === 'repeating' && input.duration_in_months) d.duration_in_months = input.duration_in_months
      if (d.type === 'percentage' && input.basis_points != null) d.basis_points = input.basis_points
      if (d.type === 'fixed' && nextAmounts) d.amounts = nextAmounts
      d.modified_at = new Date(ctx.now).toISOString()
      return d
    })
    const body = present.discount(ctx.view, d)
    emit(ctx.env, 'discount.updated', body)
    return ok(body)
  })

  r.delete('/discounts/:id', 'organization', (ctx) => {
    const id = pathId(ctx)
    findDiscount(ctx, id)
    const d = ctx.store.write(() => {
      const d = findDiscount(ctx, id)
      d.deleted_at = new Date(ctx.now).toISOString()
      return d
    })
    emit(ctx.env, 'discount.deleted', present.discount(ctx.view, d))
    return noContent()
  })
}
