// Checkout links: their routes and the redirect that opens a checkout from one.
import {z} from '../../core/zod.js'

import {ruleValidation} from '../../core/errors.js'
import {emit, noContent, ok, type Ctx, type Reply, type Router} from '../../core/http.js'
import {token, TOKEN_PREFIXES, uuid} from '../../core/ids.js'
import {finder, found, getRoute, listRoute, organizationScope, pathId} from '../../core/toolkit.js'
import type {CheckoutLinkRecord} from './model.js'
import type {ProductRecord} from '../products/model.js'
import * as present from './present.js'
import {metadataSchema, parse} from '../../core/validate.js'
import {activePrice, httpUrl, iso, newCheckout, validProducts} from './rules.js'
import {applicableDiscount} from '../discounts/apply.js'

const linkCreate = z.object({
  products: z.array(z.uuid()).min(1),
  payment_processor: z.literal('stripe').optional(),
  label: z.string().nullish(),
  success_url: httpUrl().nullish(),
  return_url: httpUrl().nullish(),
  allow_discount_codes: z.boolean().default(true),
  require_billing_address: z.boolean().default(false),
  discount_id: z.uuid().nullish(),
  metadata: metadataSchema.default({}),
})

const linkUpdate = z.object({
  products: z.array(z.uuid()).min(1).nullish(),
  label: z.string().nullish(),
  success_url: httpUrl().nullish(),
  return_url: httpUrl().nullish(),
  allow_discount_codes: z.boolean().nullish(),
  require_billing_address: z.boolean().nullish(),
  discount_id: z.uuid().nullish(),
  metadata: metadataSchema.nullish(),
})

const findLink = finder('checkout_links')

const linkDiscountError = (id: string) => ruleValidation(['body', 'discount_id'], 'Discount does not exist or is not applicable to this product.', id)

/** A link's discount must exist, be redeemable and apply to each of its products (in its price's currency). */
function linkDiscount(ctx: Ctx, id: string, productIds: string[]): string {
  const applies = productIds.every((pid) => {
    const price = activePrice(ctx.store.get('products', pid)!)
    return price !== undefined && applicableDiscount(ctx, {id}, pid, price.price_currency) !== null
  })
  if (!applies) throw linkDiscountError(id)
  return id
}

/** Metadata a checkout-link visit may add from its query string. */
const LINK_QUERY_METADATA = ['reference_id', 'utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term']

/** Opens a checkout from a link and redirects to it (the link's public `url`). */
function redirectFromLink(ctx: Ctx): Reply {
  const link = found(ctx.store.all('checkout_links').find((l) => l.client_secret === ctx.params.id))
  const products = link.product_ids.map((id) => ctx.store.get('products', id)).filter((p) => p !== undefined && !p.is_archived) as ProductRecord[]
  const price = products[0] && activePrice(products[0])
  if (!price) throw ruleValidation(['body', 'products'], 'No valid products.', link.product_ids)
  const metadata = {...link.metadata}
  for (const key of LINK_QUERY_METADATA) {
    const value = ctx.query.get(key)
    if (value && !(key in metadata)) metadata[key] = value
  }
  const k = ctx.store.write(() =>
    ctx.store.insert(
      'checkouts',
      newCheckout(ctx, products, price, {
        success_url: link.success_url,
        return_url: link.return_url,
        allow_discount_codes: link.allow_discount_codes,
        require_billing_address: link.require_billing_address,
        metadata,
        discount_id: link.discount_id && applicableDiscount(ctx, {id: link.discount_id}, price.product_id, price.price_currency) ? link.discount_id : null,
      }),
    ),
  )
  const body = present.checkout(ctx.view, k)
  emit(ctx.env, 'checkout.created', body)
  return {status: 307, headers: {location: body.url}, body: null}
}

export function registerLinks(r: Router): void {
  listRoute(r, 'checkout-links:list', (ctx: Ctx) => ctx.store.all('checkout_links'), {
    present: present.checkoutLink,
    filters: {
      organization_id: organizationScope,
      product_id: {type: 'uuid', match: (l: CheckoutLinkRecord, values) => values.some((v) => l.product_ids.includes(String(v)))},
    },
    sorts: {
      created_at: (l) => l.created_at,
      label: (l) => l.label,
      success_url: (l) => l.success_url,
      allow_discount_codes: (l) => l.allow_discount_codes,
    },
    defaultSort: ['created_at'],
  })

  r.post('/checkout-links/', 'organization', (ctx) => {
    const input = parse(linkCreate, ctx.body)
    validProducts(ctx, input.products)
    const discountId = input.discount_id ? linkDiscount(ctx, input.discount_id, input.products) : null
    const link = ctx.store.write(() => {
      validProducts(ctx, input.products)
      const now = iso(ctx.now)
      return ctx.store.insert('checkout_links', {
        id: uuid(),
        created_at: now,
        modified_at: null,
        client_secret: token(TOKEN_PREFIXES.checkoutLink),
        label: input.label ?? null,
        success_url: input.success_url ?? null,
        return_url: input.return_url ?? null,
        allow_discount_codes: input.allow_discount_codes,
        require_billing_address: input.require_billing_address,
        discount_id: discountId,
        metadata: input.metadata,
        product_ids: input.products,
      })
    })
    return ok(present.checkoutLink(ctx.view, link), 201)
  })

  getRoute(r, 'checkout-links:get', findLink, present.checkoutLink)

  r.patch('/checkout-links/:id', 'organization', (ctx) => {
    const id = pathId(ctx)
    const input = parse(linkUpdate, ctx.body)
    const current = findLink(ctx, id)
    if (input.products) validProducts(ctx, input.products)
    if (input.discount_id) linkDiscount(ctx, input.discount_id, input.products ?? current.product_ids)
    const link = ctx.store.write(() => {
      const l = findLink(ctx, id)
      if (input.discount_id) l.discount_id = input.discount_id
      if (input.products) l.product_ids = validProducts(ctx, input.products).map((p) => p.id)
      if (input.label !== undefined) l.label = input.label
      if (input.success_url !== undefined) l.success_url = input.success_url
      if (input.return_url !== undefined) l.return_url = input.return_url
      if (input.discount_id === null) l.discount_id = null
      if (typeof input.allow_discount_codes === 'boolean') l.allow_discount_codes = input.allow_discount_codes
      if (typeof input.require_billing_address === 'boolean') l.require_billing_address = input.require_billing_address
      if (input.metadata) l.metadata = input.metadata
      l.modified_at = iso(ctx.now)
      return l
    })
    return ok(present.checkoutLink(ctx.view, link))
  })

  r.delete('/checkout-links/:id', 'organization', (ctx) => {
    const id = pathId(ctx)
    findLink(ctx, id)
    ctx.store.write(() => ctx.store.remove('checkout_links', id))
    return noContent()
  })

  r.get('/checkout-links/:id/redirect', 'none', redirectFromLink)
}
