// `till trigger EVENT`: makes the environment emit an event by doing, through the API, what causes it.
// Each recipe lists its steps; objects it needs (a product to buy, a benefit) are made once and found
// again by their `till_trigger` metadata. Sandbox cannot pay a checkout through the API (a person enters a
// card), so there the purchase recipes buy a free product, and the refund recipes cannot run.
import {randomUUID} from 'node:crypto'

import type {ApiClient} from '../../client/client.js'
import type {PageResult} from '../../client/paginate.js'
import {ExitCode, TillError} from '../../client/till-error.js'

type Obj = {id: string; [key: string]: unknown}

export interface TriggerKit {
  client: ApiClient
  /** For the checkout's client routes (confirm), which take no token. */
  anonymous: ApiClient
  environment: 'local' | 'sandbox'
  /** A step, for stderr. */
  step: (line: string) => void
  sleep?: (ms: number) => Promise<void>
  /** Longest wait for an order to be paid. */
  payWaitMs?: number
}

/** What a recipe made, by kind (`order`, `subscription`, ...). */
export type Made = Record<string, string>

export interface Recipe {
  events: string[]
  summary: string
  /** Needs a paid order (sandbox cannot make one through the API). */
  needsPayment?: boolean
  run: (kit: TriggerKit, made: Made) => Promise<void>
}

const META = 'till_trigger'
const sleepReal = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

type ProductKind = 'one_time' | 'one_time_free' | 'recurring' | 'recurring_free' | 'one_time_benefit' | 'recurring_benefit'

const PRODUCTS: Record<ProductKind, {name: string; amount: number; recurring: boolean; benefit?: boolean}> = {
  one_time: {name: 'till trigger: one-time product', amount: 1500, recurring: false},
  one_time_free: {name: 'till trigger: free one-time product', amount: 0, recurring: false},
  recurring: {name: 'till trigger: monthly plan', amount: 900, recurring: true},
  recurring_free: {name: 'till trigger: free monthly plan', amount: 0, recurring: true},
  one_time_benefit: {name: 'till trigger: product with a benefit', amount: 1200, recurring: false, benefit: true},
  recurring_benefit: {name: 'till trigger: plan with a benefit', amount: 700, recurring: true, benefit: true},
}

async function findByMeta(kit: TriggerKit, path: string, value: string, extra: Record<string, string> = {}): Promise<Obj | undefined> {
  const page = await kit.client.get<PageResult<Obj>>(path, {query: {[`metadata[${META}]`]: value, limit: 1, ...extra}})
  return page.items[0]
}

async function triggerBenefit(kit: TriggerKit): Promise<Obj> {
  const found = await findByMeta(kit, '/benefits/', 'benefit')
  if (found) return found
  kit.step('creating a custom benefit for triggered events')
  return kit.client.post<Obj>('/benefits/', {type: 'custom', description: 'till trigger benefit', properties: {note: null}, metadata: {[META]: 'benefit'}})
}

/** The trigger product of this kind (free ones on sandbox), made on first use. */
async function product(kit: TriggerKit, kind: ProductKind): Promise<Obj> {
  const free = kit.environment === 'sandbox' && !kind.endsWith('_free')
  const effective = (free ? (kind.startsWith('recurring') ? 'recurring_free' : 'one_time_free') : kind) as ProductKind
  const spec = PRODUCTS[effective]
  const benefit = PRODUCTS[kind].benefit
  const key = benefit && free ? `${effective}_benefit` : effective
  const found = await findByMeta(kit, '/products/', key, {is_archived: 'false'})
  if (found) return found
  kit.step(`creating the product "${spec.name}${benefit && free ? ' (with a benefit)' : ''}"`)
  const created = await kit.client.post<Obj>('/products/', {
    name: `${spec.name}${benefit && free ? ' with a benefit' : ''}`,
    prices: [{amount_type: 'fixed', price_amount: spec.amount, price_currency: 'usd'}],
    ...(spec.recurring ? {recurring_interval: 'month'} : {}),
    metadata: {[META]: key},
  })
  if (benefit) await kit.client.post(`/products/${created.id}/benefits`, {benefits: [(await triggerBenefit(kit)).id]})
  return created
}

const email = () => `till.trigger+${randomUUID().slice(0, 8)}@example.com`

/** Buys `kind`: a checkout, confirmed with its client secret as a customer would. Records checkout, order, customer and subscription. */
async function buy(kit: TriggerKit, made: Made, kind: ProductKind | 'seats'): Promise<Obj> {
  const p = kind === 'seats' ? await seatPlan(kit) : await product(kit, kind)
  const checkout = await kit.client.post<Obj & {client_secret: string}>('/checkouts/', {products: [p.id], metadata: {[META]: 'checkout'}})
  made.checkout = checkout.id
  kit.step(`created checkout ${checkout.id} for "${String(p.name)}"; confirming it with its client secret`)
  await kit.anonymous.post(`/checkouts/client/${checkout.client_secret}/confirm`, {
    customer_email: email(),
    customer_name: 'Till Trigger',
    customer_billing_address: {country: 'US', line1: '1 Main St', city: 'San Francisco', postal_code: '94105', state: 'US-CA'},
  })
  const orders = await kit.client.get<PageResult<Obj>>('/orders/', {query: {checkout_id: checkout.id, limit: 1}})
  const order = orders.items[0]
  if (!order) throw new TillError(`checkout ${checkout.id} was confirmed but no order appeared`, ExitCode.error)
  made.order = order.id
  made.customer = String(order.customer_id)
  if (order.subscription_id) made.subscription = String(order.subscription_id)
  kit.step(`order ${order.id} created (${String(order.status)})`)
  return order
}

/** Waits for the order's payment to complete (the emulator pays after its payment delay). */
async function paid(kit: TriggerKit, orderId: string): Promise<Obj> {
  const sleep = kit.sleep ?? sleepReal
  const deadline = Date.now() + (kit.payWaitMs ?? 60_000)
  for (;;) {
    const order = await kit.client.get<Obj>(`/orders/${orderId}`)
    if (order.status === 'paid') {
      kit.step(`order ${orderId} paid`)
      return order
    }
    if (order.status !== 'pending' || Date.now() > deadline) {
      throw new TillError(
        `order ${orderId} is ${String(order.status)}, not paid${order.status === 'pending' ? ` after ${Math.round((kit.payWaitMs ?? 60_000) / 1000)} s` : ''}`,
        ExitCode.error,
      )
    }
    await sleep(250)
  }
}

async function subscribe(kit: TriggerKit, made: Made, kind: ProductKind | 'seats' = 'recurring'): Promise<string> {
  await buy(kit, made, kind)
  if (!made.subscription) throw new TillError('the checkout of a recurring product made no subscription', ExitCode.error)
  return made.subscription
}

async function cancel(kit: TriggerKit, id: string): Promise<void> {
  await kit.client.patch(`/subscriptions/${id}`, {cancel_at_period_end: true})
  kit.step(`subscription ${id} set to cancel at the end of its period`)
}

async function customer(kit: TriggerKit, made: Made): Promise<string> {
  const c = await kit.client.post<Obj>('/customers/', {email: email(), name: 'Till Trigger', metadata: {[META]: 'customer'}})
  made.customer = c.id
  kit.step(`created customer ${c.id}`)
  return c.id
}

/** The trigger's seat-based monthly plan ($5.00 a seat), made on first use. */
async function seatPlan(kit: TriggerKit): Promise<Obj> {
  const found = await findByMeta(kit, '/products/', 'seats', {is_archived: 'false'})
  if (found) return found
  kit.step('creating the product "till trigger: seat-based plan"')
  return kit.client.post<Obj>('/products/', {
    name: 'till trigger: seat-based plan',
    recurring_interval: 'month',
    prices: [
      {amount_type: 'seat_based', price_currency: 'usd', seat_tiers: {seat_tier_type: 'volume', tiers: [{min_seats: 1, max_seats: null, price_per_seat: 500}]}},
    ],
    metadata: {[META]: 'seats'},
  })
}

/**
 * A seat of a new subscription to the seat-based plan, assigned to a new e-mail: pending until claimed
 * (customer_seat.assigned), or claimed at once without an invitation (`claimed`: customer_seat.claimed).
 */
async function seat(kit: TriggerKit, made: Made, claimed = false): Promise<string> {
  const subscription = await subscribe(kit, made, 'seats')
  await paid(kit, made.order!)
  const assigned = await kit.client.post<Obj>('/customer-seats', {subscription_id: subscription, email: email(), ...(claimed ? {immediate_claim: true} : {})})
  made.seat = assigned.id
  kit.step(`assigned seat ${assigned.id} of subscription ${subscription}${claimed ? ', claimed at once' : ''}`)
  return assigned.id
}

/** A new customer made a team, with a member added to it (member.created). */
async function member(kit: TriggerKit, made: Made): Promise<{customer: string; member: string}> {
  const id = await customer(kit, made)
  await kit.client.patch(`/customers/${id}`, {type: 'team'})
  const m = await kit.client.post<Obj>(`/customers/${id}/members`, {email: email(), name: 'Till Trigger member', role: 'member'})
  made.member = m.id
  kit.step(`made customer ${id} a team and added member ${m.id}`)
  return {customer: id, member: m.id}
}

async function newProduct(kit: TriggerKit, made: Made): Promise<string> {
  const p = await kit.client.post<Obj>('/products/', {
    name: `till trigger product ${randomUUID().slice(0, 8)}`,
    prices: [{amount_type: 'fixed', price_amount: 1000, price_currency: 'usd'}],
    metadata: {[META]: 'created'},
  })
  made.product = p.id
  kit.step(`created product ${p.id}`)
  return p.id
}

export const RECIPES: Recipe[] = [
  {
    events: ['order.created', 'order.updated', 'order.paid'],
    summary:
      'Creates a checkout for a one-time product and confirms it with its client secret; the order is created pending and then paid (order.created, order.updated, order.paid). Sandbox: a free product.',
    run: async (kit, made) => void (await paid(kit, (await buy(kit, made, 'one_time')).id)),
  },
  {
    events: ['order.refunded', 'refund.created'],
    summary: 'Buys a one-time product, waits until the order is paid, then refunds it in full (refund.created, order.refunded, order.updated).',
    needsPayment: true,
    run: async (kit, made) => {
      const order = await paid(kit, (await buy(kit, made, 'one_time')).id)
      const refund = await kit.client.post<Obj>('/refunds/', {
        order_id: order.id,
        reason: 'customer_request',
        amount: order.refundable_amount ?? order.net_amount,
        metadata: {[META]: 'refund'},
      })
      made.refund = refund.id
      kit.step(`refunded order ${order.id} in full (refund ${refund.id})`)
    },
  },
  {
    events: ['subscription.created', 'subscription.active'],
    summary: 'Subscribes a new customer to a monthly plan through a confirmed checkout. Sandbox: a free plan.',
    run: async (kit, made) => void (await subscribe(kit, made)),
  },
  {
    events: ['subscription.updated', 'subscription.canceled'],
    summary: 'Subscribes, then cancels the subscription at the end of its period (subscription.updated, subscription.canceled).',
    run: async (kit, made) => cancel(kit, await subscribe(kit, made)),
  },
  {
    events: ['subscription.uncanceled'],
    summary: 'Subscribes, cancels at the end of the period, then takes the cancellation back.',
    run: async (kit, made) => {
      const id = await subscribe(kit, made)
      await cancel(kit, id)
      await kit.client.patch(`/subscriptions/${id}`, {cancel_at_period_end: false})
      kit.step(`subscription ${id} uncanceled`)
    },
  },
  {
    events: ['subscription.revoked'],
    summary: 'Subscribes, then revokes the subscription at once (subscription.updated, subscription.canceled, subscription.revoked).',
    run: async (kit, made) => {
      const id = await subscribe(kit, made)
      await kit.client.delete(`/subscriptions/${id}`)
      kit.step(`subscription ${id} revoked`)
    },
  },
  {
    events: ['customer.created'],
    summary: 'Creates a customer.',
    run: async (kit, made) => void (await customer(kit, made)),
  },
  {
    events: ['customer.updated'],
    summary: 'Creates a customer, then changes its name.',
    run: async (kit, made) => {
      const id = await customer(kit, made)
      await kit.client.patch(`/customers/${id}`, {name: 'Till Trigger (updated)'})
      kit.step(`updated customer ${id}`)
    },
  },
  {
    events: ['customer.deleted'],
    summary: 'Creates a customer, then deletes it.',
    run: async (kit, made) => {
      const id = await customer(kit, made)
      await kit.client.delete(`/customers/${id}`)
      kit.step(`deleted customer ${id}`)
    },
  },
  {
    events: ['customer_seat.assigned'],
    summary: 'Subscribes to a seat-based plan, waits until it is paid, then assigns a seat to a new e-mail.',
    needsPayment: true,
    run: async (kit, made) => void (await seat(kit, made)),
  },
  {
    events: ['customer_seat.claimed'],
    summary: 'Subscribes to a seat-based plan, waits until it is paid, then assigns a seat to a new e-mail, claimed at once (no invitation).',
    needsPayment: true,
    run: async (kit, made) => void (await seat(kit, made, true)),
  },
  {
    events: ['customer_seat.revoked'],
    summary: 'Assigns a seat of a new seat-based subscription, then revokes it.',
    needsPayment: true,
    run: async (kit, made) => {
      const id = await seat(kit, made)
      await kit.client.delete(`/customer-seats/${id}`)
      kit.step(`revoked seat ${id}`)
    },
  },
  {
    events: ['member.created'],
    summary: 'Creates a customer, makes it a team and adds a member to it.',
    run: async (kit, made) => void (await member(kit, made)),
  },
  {
    events: ['member.updated'],
    summary: 'Adds a member to a new team customer, then makes it a billing manager.',
    run: async (kit, made) => {
      const m = await member(kit, made)
      await kit.client.patch(`/customers/${m.customer}/members/${m.member}`, {role: 'billing_manager'})
      kit.step(`made member ${m.member} a billing manager`)
    },
  },
  {
    events: ['member.deleted'],
    summary: 'Adds a member to a new team customer, then removes it.',
    run: async (kit, made) => {
      const m = await member(kit, made)
      await kit.client.delete(`/customers/${m.customer}/members/${m.member}`)
      kit.step(`removed member ${m.member}`)
    },
  },
  {
    events: ['checkout.created'],
    summary: 'Creates a checkout for a one-time product (left open).',
    run: async (kit, made) => {
      const p = await product(kit, 'one_time')
      made.checkout = (await kit.client.post<Obj>('/checkouts/', {products: [p.id], metadata: {[META]: 'checkout'}})).id
      kit.step(`created checkout ${made.checkout}`)
    },
  },
  {
    events: ['checkout.updated'],
    summary: 'Creates a checkout, then changes its metadata.',
    run: async (kit, made) => {
      const p = await product(kit, 'one_time')
      const id = (await kit.client.post<Obj>('/checkouts/', {products: [p.id], metadata: {[META]: 'checkout'}})).id
      made.checkout = id
      await kit.client.patch(`/checkouts/${id}`, {metadata: {[META]: 'checkout', step: 'updated'}})
      kit.step(`created and updated checkout ${id}`)
    },
  },
  {
    events: ['product.created'],
    summary: 'Creates a one-time product.',
    run: async (kit, made) => void (await newProduct(kit, made)),
  },
  {
    events: ['product.updated'],
    summary: 'Creates a one-time product, then changes its description.',
    run: async (kit, made) => {
      const id = await newProduct(kit, made)
      await kit.client.patch(`/products/${id}`, {description: 'Updated by till trigger.'})
      kit.step(`updated product ${id}`)
    },
  },
  {
    events: ['benefit.created'],
    summary: 'Creates a custom benefit.',
    run: async (kit, made) => {
      const b = await kit.client.post<Obj>('/benefits/', {
        type: 'custom',
        description: `till trigger ${randomUUID().slice(0, 8)}`,
        properties: {note: null},
        metadata: {[META]: 'created'},
      })
      made.benefit = b.id
      kit.step(`created benefit ${b.id}`)
    },
  },
  {
    events: ['benefit_grant.created'],
    summary: 'Buys a product that carries a custom benefit; the benefit is granted once the order is paid.',
    run: async (kit, made) => void (await paid(kit, (await buy(kit, made, 'one_time_benefit')).id)),
  },
  {
    events: ['benefit_grant.revoked'],
    summary: 'Subscribes to a plan that carries a custom benefit, waits for the grant, then revokes the subscription (and with it the benefit).',
    run: async (kit, made) => {
      const id = await subscribe(kit, made, 'recurring_benefit')
      await paid(kit, made.order!)
      await kit.client.delete(`/subscriptions/${id}`)
      kit.step(`subscription ${id} revoked`)
    },
  },
]

export const TRIGGERABLE = RECIPES.flatMap((r) => r.events)

export const recipeFor = (event: string) => RECIPES.find((r) => r.events.includes(event))

/** A paid checkout URL for a person to complete in a browser (sandbox refunds). */
export async function paidCheckoutUrl(kit: TriggerKit): Promise<string> {
  const p = await product({...kit, environment: 'local'}, 'one_time')
  return String((await kit.client.post<Obj>('/checkouts/', {products: [p.id], metadata: {[META]: 'checkout'}})).url)
}
