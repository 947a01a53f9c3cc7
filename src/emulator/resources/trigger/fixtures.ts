// The payload of a triggered event (server/polar/cli/fixtures.py, TriggerFixtures): a mutually consistent
// set of objects that exist only to be serialized, never stored. The emulator makes them with its own seed
// pieces in a store of their own, presents them with the resources' presenters, and gives every id and
// token in them a new value from the request's seed (the same seed, the same ids), so that no triggered
// payload names an object of the environment. The organization is the environment's own, as in the service.
import type {Env} from '../../core/http.js'
import {seededRandom, token, uuid} from '../../core/ids.js'
import type {EnvData} from '../../core/model.js'
import {organization, type View} from '../../core/present.js'
import {DAY, iso} from '../../core/seeding.js'
import {Store} from '../../core/store.js'
import {makeBenefits, seedGrants} from '../benefits/seed.js'
import * as benefitViews from '../benefits/present.js'
import {seedCheckouts} from '../checkouts/seed.js'
import * as checkoutViews from '../checkouts/present.js'
import {customerSeat} from '../customer-seats/present.js'
import {seedSeats} from '../customer-seats/seed.js'
import * as customerViews from '../customers/present.js'
import {makeCustomers, makeCustomerVariants} from '../customers/seed.js'
import * as discountViews from '../discounts/present.js'
import {seedDiscounts} from '../discounts/seed.js'
import {member} from '../members/present.js'
import {seedMembers} from '../members/seed.js'
import * as orderViews from '../orders/present.js'
import {seedOrders} from '../orders/seed.js'
import * as productViews from '../products/present.js'
import {makeProducts, makeProductVariants} from '../products/seed.js'
import * as refundViews from '../refunds/present.js'
import * as subscriptionViews from '../subscriptions/present.js'

/** The API version of every triggered payload: the service's current one (CURRENT_API_VERSION). */
export const TRIGGER_API_VERSION = '2026-10'

type Json = Record<string, unknown>

/** The objects a payload is made of, presented; each event takes one and changes what its event says. */
interface Objects {
  now: number
  view: View
  data: EnvData
}

/** A store of fixture objects made at `now`, with the environment's organization. */
function fixtureObjects(env: Env, now: number): Objects {
  const real = env.store.data
  // every collection empty, the rest (organization, counters) the environment's
  const emptied = Object.entries(real).map(([k, v]) => [k, Array.isArray(v) ? [] : v])
  const data = Object.fromEntries(emptied) as unknown as EnvData
  data.organization = {...real.organization}
  // a stream of its own: the objects' ids are replaced below, whatever they are
  const random = seededRandom(0x7e19)
  const start = now - 60 * DAY
  data.benefits = makeBenefits(random, start)
  data.products = makeProducts(random, 1, start, data.benefits)
  data.products.push(...makeProductVariants(random, start, uuid(random)))
  data.customers = makeCustomers(random, 1, start + 2 * DAY, now - 30 * DAY)
  data.customers.push(...makeCustomerVariants(random, start + 2 * DAY))
  seedOrders(data, random, 4, now - 30 * DAY, now)
  seedCheckouts(data, random, now)
  seedGrants(data, random, now)
  seedDiscounts(data, random, start)
  seedMembers(data, random)
  seedSeats(data, random, now)
  const view: View = {store: Store.memory(data), now, origin: env.origin, version: TRIGGER_API_VERSION}
  return {now, view, data}
}

const one = <T>(rows: T[], test: (row: T) => unknown, what: string): T => {
  const found = rows.find(test)
  if (!found) throw new Error(`the trigger fixtures have no ${what}`)
  return found
}

/** Each event type's `data`, as the service's fixtures change it for that event. */
const BUILDERS: Record<string, (o: Objects) => Json> = {}

function on(types: string[], build: (o: Objects, type: string) => Json): void {
  for (const type of types) BUILDERS[type] = (o) => build(o, type)
}

/** Event types of one noun: of('order', 'paid') is ['order.paid']. */
const of = (noun: string, ...verbs: string[]) => verbs.map((v) => `${noun}.${v}`)

/** A presented object, as the JSON it is. */
const json = (presented: unknown) => presented as Json

const paidOrder = (o: Objects) => one(o.data.orders, (x) => x.status === 'paid' && x.subscription_id, 'paid order')
const activeSubscription = (o: Objects) => {
  const billed = (id: string) => o.data.orders.some((x) => x.subscription_id === id)
  return one(o.data.subscriptions, (s) => s.status === 'active' && billed(s.id), 'active subscription')
}
const subscription = (o: Objects) => json(subscriptionViews.subscription(o.view, activeSubscription(o)))
const customer = (o: Objects) => one(o.data.customers, (c) => c.id === activeSubscription(o).customer_id, 'customer')
const nowIso = (o: Objects) => iso(o.now)

on(['checkout.created', 'checkout.updated', 'checkout.expired'], (o, type) => {
  const k = one(o.data.checkouts, (c) => c.status === 'open' && Date.parse(c.expires_at) > o.now, 'open checkout')
  const body = json(checkoutViews.checkout(o.view, k))
  if (type === 'checkout.updated') body.status = 'confirmed'
  if (type === 'checkout.expired') Object.assign(body, {status: 'expired', expires_at: iso(o.now - 60_000)})
  return body
})
on(of('customer', 'created', 'updated', 'deleted'), (o) => json(customerViews.customer(o.view, customer(o))))
on(['customer.state_changed'], (o) => json(customerViews.customerState(o.view, customer(o))))
on(['customer_seat.assigned', 'customer_seat.claimed', 'customer_seat.revoked'], (o, type) => {
  const body = json(
    customerSeat(
      o.view,
      one(o.data.customer_seats, () => true, 'seat'),
    ),
  )
  const now = nowIso(o)
  if (type === 'customer_seat.assigned') Object.assign(body, {status: 'pending', claimed_at: null, revoked_at: null})
  if (type === 'customer_seat.claimed') Object.assign(body, {status: 'claimed', claimed_at: now, revoked_at: null})
  if (type === 'customer_seat.revoked') Object.assign(body, {status: 'revoked', revoked_at: now})
  return body
})
const teamMember = (o: Objects) => one(o.data.members, (m) => m.role === 'member', 'member')
on(of('member', 'created', 'updated', 'deleted'), (o) => json(member(teamMember(o))))
on(of('discount', 'created', 'updated', 'deleted'), (o) => json(discountViews.discount(o.view, o.data.discounts[0]!)))
on(['order.created', 'order.updated', 'order.paid', 'order.refunded'], (o, type) => {
  const body = json(orderViews.order(o.view, paidOrder(o)))
  if (type === 'order.created') body.status = 'pending'
  const refunded = {status: 'refunded', refunded_amount: body.net_amount, refunded_tax_amount: body.tax_amount}
  if (type === 'order.refunded') Object.assign(body, refunded)
  return body
})
const UNCHANGED_SUBSCRIPTION = ['created', 'updated', 'active', 'uncanceled', 'resumed'].map((t) => `subscription.${t}`)
on(UNCHANGED_SUBSCRIPTION, subscription)
on(['subscription.canceled'], (o) => {
  const body = subscription(o)
  return Object.assign(body, {cancel_at_period_end: true, canceled_at: nowIso(o), ends_at: body.current_period_end})
})
on(['subscription.cycled'], (o) => {
  const body = subscription(o)
  const start = Date.parse(String(body.current_period_end))
  const end = new Date(start)
  end.setUTCMonth(end.getUTCMonth() + 1)
  return Object.assign(body, {current_period_start: iso(start), current_period_end: iso(end.getTime())})
})
on(['subscription.revoked'], (o) => {
  const now = nowIso(o)
  return Object.assign(subscription(o), {status: 'canceled', canceled_at: now, ends_at: now, ended_at: now})
})
on(['subscription.past_due'], (o) => Object.assign(subscription(o), {status: 'past_due', past_due_at: nowIso(o)}))
on(['subscription.paused'], (o) => Object.assign(subscription(o), {status: 'paused'}))
on(['subscription.migrated'], subscription)
on(['refund.created', 'refund.updated'], (o) =>
  json(
    refundViews.refund(
      o.view,
      one(o.data.refunds, () => true, 'refund'),
    ),
  ),
)
on(['product.created', 'product.updated'], (o) => {
  const id = paidOrder(o).product_id
  return json(
    productViews.product(
      o.view,
      one(o.data.products, (p) => p.id === id, 'product'),
    ),
  )
})
on(['organization.updated'], (o) => json(organization(o.data.organization)))
on(['benefit.created', 'benefit.updated'], (o) => {
  return json(
    benefitViews.benefit(
      o.view,
      one(o.data.benefits, (b) => b.type === 'custom', 'custom benefit'),
    ),
  )
})
const GRANT_EVENTS = ['created', 'updated', 'cycled', 'revoked'].map((t) => `benefit_grant.${t}`)
on(GRANT_EVENTS, (o, type) => {
  const g = one(o.data.benefit_grants, (x) => x.granted_at !== null && x.revoked_at === null, 'granted benefit')
  if (type === 'benefit_grant.revoked') g.revoked_at = nowIso(o)
  return json(benefitViews.benefitGrant(o.view, g))
})

/** Whether the emulator can build a payload of this event type. */
export const canBuild = (type: string): boolean => Object.hasOwn(BUILDERS, type)

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g
const TOKEN = /\bpolar_[a-z]+_[A-Za-z0-9]+/g

/** FNV-1a of a text: a 32-bit seed for the emulator's random source. */
function fnv(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return h >>> 0
}

/**
 * Gives every id and token in `value` a new one, drawn from `salt` and the old one: the same object has the
 * same new id wherever it appears, in this payload and in any other made with the same salt.
 */
function renamed(value: unknown, keep: string, salt: string): unknown {
  const random = (old: string) => seededRandom(fnv(`${salt}:${old}`))
  const newId = (id: string) => (id === keep ? id : uuid(random(id)))
  // `polar_c_...` keeps its prefix
  const newToken = (t: string) => token(t.slice(0, t.indexOf('_', 6) + 1), random(t))
  const rename = (text: string) => text.replace(UUID, newId).replace(TOKEN, newToken)
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return rename(v)
    if (Array.isArray(v)) return v.map(walk)
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
    return v
  }
  return walk(value)
}

/**
 * The payload of a triggered `type` event (`canBuild(type)` first): `{type, timestamp, api_version, data}`.
 * With a seed, its ids and tokens are the same on every call.
 */
export function buildPayload(env: Env, type: string, seed: number | null): Json {
  const now = env.now()
  const objects = fixtureObjects(env, now)
  const data = BUILDERS[type]!(objects)
  const salt = seed === null ? uuid() : `seed ${seed}`
  const payload: Json = {
    type,
    timestamp: new Date(now).toISOString(),
    api_version: TRIGGER_API_VERSION,
    data: renamed(data, env.store.data.organization.id, salt),
  }
  // the service's payload of a migrated subscription names where it came from, beside `data`
  const migratedFrom = {provider: 'stripe', provider_subscription_id: 'sub_1TillTriggerFixture'}
  if (type === 'subscription.migrated') Object.assign(payload, migratedFrom)
  return payload
}
