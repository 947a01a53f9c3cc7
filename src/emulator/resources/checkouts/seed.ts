// Seeded checkouts (open, expired and succeeded) and checkout links.
import type {EnvData} from '../../core/model.js'
import {DAY, iso, oldestFirst} from '../../core/seeding.js'
import {token, uuid, type Random} from '../../core/ids.js'
import type {CheckoutLinkRecord, CheckoutRecord} from './model.js'
import {startingAmount} from '../products/amounts.js'

export function seedCheckouts(data: EnvData, random: Random, now: number): void {
  const sellable = data.products.filter((p) => !p.is_archived && p.visibility === 'public')
  const checkouts: CheckoutRecord[] = []
  const count = Math.min(12, Math.max(3, Math.floor(data.orders.length / 5)))
  for (let i = 0; i < count; i++) {
    const product = sellable[i % sellable.length]!
    const price = product.prices[0]!
    const customer = i % 3 === 0 ? data.customers[i % data.customers.length]! : null
    const created = now - (count - i) * 3 * 3_600_000
    const status: CheckoutRecord['status'] = i % 4 === 0 ? 'expired' : i % 4 === 1 ? 'succeeded' : 'open'
    checkouts.push({
      id: uuid(random),
      created_at: iso(status === 'expired' ? created - 2 * DAY : created),
      modified_at: null,
      status: status === 'expired' ? 'open' : status,
      client_secret: token('polar_c_', random),
      expires_at: iso((status === 'expired' ? created - 2 * DAY : created) + DAY),
      success_url: null,
      return_url: null,
      amount: startingAmount(price),
      discount_amount: 0,
      tax_amount: null,
      currency: price.price_currency,
      product_ids: [product.id],
      product_id: product.id,
      product_price_id: price.id,
      discount_id: null,
      subscription_id: null,
      customer_id: customer?.id ?? null,
      external_customer_id: customer?.external_id ?? null,
      customer_name: customer?.name ?? null,
      customer_email: customer?.email ?? (status === 'succeeded' ? `buyer${i}@example.com` : null),
      customer_billing_name: null,
      customer_billing_address: null,
      customer_tax_id: null,
      customer_metadata: {},
      require_billing_address: false,
      allow_discount_codes: true,
      is_business_customer: false,
      metadata: i % 2 === 0 ? {campaign: 'spring'} : {},
      order_id: null,
    })
  }
  data.checkouts = checkouts.sort(oldestFirst)
  const links: CheckoutLinkRecord[] = sellable.slice(0, 3).map((p, i) => ({
    id: uuid(random),
    created_at: iso(now - (30 - i) * DAY),
    modified_at: null,
    client_secret: token('polar_cl_', random),
    label: `${p.name} link`,
    success_url: null,
    return_url: null,
    allow_discount_codes: true,
    require_billing_address: false,
    discount_id: null,
    metadata: {},
    product_ids: [p.id],
  }))
  data.checkout_links = links
}

/** At most this many past checkouts, so that a big store loads as fast as before. */
const PAST_CHECKOUTS = 600

/**
 * Checkouts of the history (before the last 30 days), for the checkout and conversion metrics: one that
 * succeeded a few minutes before a sample of the paid orders of public products, and one or two
 * abandoned (expired) ones beside it. A random generator of their own leaves every other seeded id as it
 * was; they sort before the recent checkouts, which stay the first page of the list.
 */
export function seedPastCheckouts(data: EnvData, random: Random, now: number): void {
  const products = new Map(data.products.map((p) => [p.id, p]))
  const customers = new Map(data.customers.map((c) => [c.id, c]))
  const cutoff = now - 30 * DAY
  const candidates = data.orders.filter((o) => {
    const p = o.product_id ? products.get(o.product_id) : undefined
    return p && p.visibility === 'public' && !p.is_archived && o.status !== 'draft' && o.status !== 'void' && Date.parse(o.created_at) < cutoff
  })
  const every = Math.max(1, Math.ceil((candidates.length * 2.5) / PAST_CHECKOUTS))
  const past: CheckoutRecord[] = []
  candidates.forEach((order, i) => {
    if (i % every !== 0) return
    const product = products.get(order.product_id!)!
    const price = product.prices[0]!
    const customer = customers.get(order.customer_id) ?? null
    const at = Date.parse(order.created_at)
    const abandoned = 1 + Math.floor(random() * 2)
    for (let k = 0; k <= abandoned; k++) {
      const succeeded = k === 0
      const created = succeeded ? at - 5 * 60_000 : at - Math.floor((1 + random() * 20) * 3_600_000)
      past.push({
        id: uuid(random),
        created_at: iso(created),
        modified_at: null,
        status: succeeded ? 'succeeded' : 'open',
        client_secret: token('polar_c_', random),
        expires_at: iso(created + DAY),
        success_url: null,
        return_url: null,
        amount: order.subtotal_amount,
        discount_amount: 0,
        tax_amount: null,
        currency: price.price_currency,
        product_ids: [product.id],
        product_id: product.id,
        product_price_id: price.id,
        discount_id: null,
        subscription_id: null,
        customer_id: succeeded ? order.customer_id : null,
        external_customer_id: succeeded ? (customer?.external_id ?? null) : null,
        customer_name: succeeded ? (customer?.name ?? null) : null,
        customer_email: succeeded ? (customer?.email ?? null) : null,
        customer_billing_name: null,
        customer_billing_address: null,
        customer_tax_id: null,
        customer_metadata: {},
        require_billing_address: false,
        allow_discount_codes: true,
        is_business_customer: false,
        metadata: {},
        order_id: null,
      })
    }
  })
  data.checkouts = [...past, ...data.checkouts].sort(oldestFirst)
}
