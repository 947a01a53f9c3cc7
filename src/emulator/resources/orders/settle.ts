// The timed changes of orders and the events they raise: a pending order whose payment completed
// (`order.updated` + `order.paid`) and a finished invoice (`order.updated`).
import {emit, type Env} from '../../core/http.js'
import type {BenefitGrantRecord} from '../benefits/model.js'
import {grantProductBenefits} from '../benefits/grants.js'
import * as benefitViews from '../benefits/present.js'
import * as checkoutViews from '../checkouts/present.js'
import * as customerViews from '../customers/present.js'
import type {OrderRecord} from './model.js'
import * as present from './present.js'

/** Per environment: the store version last swept and when its next timed change falls due. */
const sweeps = new WeakMap<Env, {data: object; version: number; nextDue: number}>()

/** Raises the events of the timed transitions that have fallen due since the last sweep. */
export function settle(env: Env): void {
  const now = env.now()
  const last = sweeps.get(env)
  // Nothing changed since the last sweep and nothing has fallen due: no need to look at every order.
  if (last && last.data === env.store.data && last.version === env.store.data.version && now < last.nextDue) return
  let nextDue = Number.POSITIVE_INFINITY
  const due = env.store.all('orders').filter((o) => {
    const paidAt = o.status === 'pending' && o.paid_at !== null && !o.paid_event_sent ? Date.parse(o.paid_at) : Number.POSITIVE_INFINITY
    const readyAt = o.invoice_ready_at !== null && !o.invoice_event_sent ? Date.parse(o.invoice_ready_at) : Number.POSITIVE_INFINITY
    const at = Math.min(paidAt, readyAt)
    if (at > now) nextDue = Math.min(nextDue, at)
    return at <= now
  })
  sweeps.set(env, {data: env.store.data, version: env.store.data.version, nextDue})
  settleOrders(env, due, now)
}

/** The payments and invoices of `due` that have fallen due by `now`, done, with their events. */
export function settleOrders(env: Env, due: readonly OrderRecord[], now: number): void {
  if (due.length === 0) return
  const changed = env.store.write(() =>
    due.flatMap((stale) => {
      const o = env.store.get('orders', stale.id)
      if (!o) return []
      const events: string[] = []
      let grants: BenefitGrantRecord[] = []
      if (o.status === 'pending' && o.paid_at !== null && !o.paid_event_sent && Date.parse(o.paid_at) <= now) {
        o.status = 'paid'
        o.paid_event_sent = true
        o.modified_at = o.paid_at
        events.push('order.updated', 'order.paid')
        grants = grantProductBenefits(
          env.store,
          {customerId: o.customer_id, productId: o.product_id, orderId: o.id, subscriptionId: o.subscription_id},
          o.paid_at,
        )
      }
      if (o.invoice_ready_at !== null && !o.invoice_event_sent && Date.parse(o.invoice_ready_at) <= now) {
        o.invoice_event_sent = true
        if (!events.includes('order.updated')) events.push('order.updated')
      }
      return events.length > 0 ? [{order: o, events, grants}] : []
    }),
  )
  const view = {store: env.store, now, origin: env.origin}
  for (const {order, events, grants} of changed) {
    const body = present.order(view, order)
    for (const type of events) emit(env, type, body)
    const checkout = order.checkout_id && events.includes('order.paid') ? env.store.get('checkouts', order.checkout_id) : undefined
    if (checkout) emit(env, 'checkout.updated', checkoutViews.checkout(view, checkout))
    for (const g of grants) emit(env, 'benefit_grant.created', benefitViews.benefitGrant(view, g))
    if (grants.length > 0) {
      const customer = env.store.get('customers', order.customer_id)
      if (customer) emit(env, 'customer.state_changed', customerViews.customerState(view, customer))
    }
  }
}
