// The clock's walk: everything that falls due between the environment's time and the target is settled at
// its own moment, in time order, and what it causes (a new period, an order, a payment, a webhook event)
// carries that moment. What is due comes from the store: subscriptions' period ends (renewal, the first
// charge after a trial, or the end of one set to cancel), pending payments, dunning retries, open checkouts
// expiring. One store write for the whole walk, its system events flushed to the disk once. The ids it
// makes are drawn from a generator seeded by the walk's start and end: the same store and steps make the
// same objects.
import type {Ctx, Env, EventListener} from '../../core/http.js'
import type {View} from '../../core/present.js'
import {crc32, seededRandom, withIdSource} from '../../core/ids.js'
import {batchSyncs} from '../../core/append-log.js'
import {checkout as presentCheckout} from '../checkouts/present.js'
import {emit} from '../../core/http.js'
import {settleOrders} from '../orders/settle.js'
import {cardDeclines, emitRenewal, finalUsageOrder, renewPeriod, retryPayment} from '../subscriptions/cycle.js'
import {BILLABLE, endAtPeriodEnd, iso} from '../subscriptions/lifecycle.js'
import {clockOf} from './model.js'
import {atMoment} from './time.js'

/** What falls due, by kind; at one moment, in this order. */
const KINDS = ['retry', 'payment', 'period', 'checkout'] as const
type Kind = (typeof KINDS)[number]

interface Due {
  at: number
  kind: Kind
  id: string
}

const before = (a: Due, b: Due) => a.at - b.at || KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** A binary heap of what is due, earliest first (ties broken by kind, then id: a deterministic order). */
class Queue {
  private heap: Due[] = []

  get size(): number {
    return this.heap.length
  }

  peek(): Due | undefined {
    return this.heap[0]
  }

  push(item: Due): void {
    const h = this.heap
    h.push(item)
    let i = h.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (before(h[parent]!, h[i]!) <= 0) break
      ;[h[parent], h[i]] = [h[i]!, h[parent]!]
      i = parent
    }
  }

  pop(): Due | undefined {
    const h = this.heap
    const top = h[0]
    const last = h.pop()
    if (h.length > 0 && last) {
      h[0] = last
      let i = 0
      for (;;) {
        const l = 2 * i + 1
        const r = l + 1
        let m = i
        if (l < h.length && before(h[l]!, h[m]!) < 0) m = l
        if (r < h.length && before(h[r]!, h[m]!) < 0) m = r
        if (m === i) break
        ;[h[m], h[i]] = [h[i]!, h[m]!]
        i = m
      }
    }
    return top
  }
}

/** The service expires open checkouts every quarter of an hour: the first run at or after `ms`. */
const nextQuarterHour = (ms: number) => Math.ceil(ms / 900_000) * 900_000

/** Everything the store holds that falls due from `from` on. */
function collect(env: Env, from: number): Queue {
  const queue = new Queue()
  for (const s of env.store.all('subscriptions')) {
    if (BILLABLE.includes(s.status) && s.ended_at === null && s.started_at !== null)
      queue.push({at: Date.parse(s.current_period_end), kind: 'period', id: s.id})
  }
  for (const o of env.store.all('orders')) {
    if (o.status !== 'pending') continue
    if (o.paid_at !== null && !o.paid_event_sent) queue.push({at: Date.parse(o.paid_at), kind: 'payment', id: o.id})
    if (o.next_payment_attempt_at) queue.push({at: Date.parse(o.next_payment_attempt_at), kind: 'retry', id: o.id})
  }
  // an open checkout that expired before the walk has expired already: only those expiring from now on
  for (const k of env.store.all('checkouts')) {
    const expires = Date.parse(k.expires_at)
    if (k.status === 'open' && expires >= from) queue.push({at: nextQuarterHour(expires), kind: 'checkout', id: k.id})
  }
  return queue
}

/** A request's context at `now`; the walk's one view moves with it (presenters cache per view). */
const contextAt = (env: Env, view: View, now: number): Ctx => ({
  env,
  store: env.store,
  now,
  view: Object.assign(view, {now}),
  params: {},
  query: new URLSearchParams(),
  body: undefined,
  headers: {},
  auth: {kind: 'organization'},
})

/** Settles one thing due at `ctx.now`; what it makes due later goes on the queue. */
function settleOne(ctx: Ctx, item: Due, queue: Queue): boolean {
  const store = ctx.store
  if (item.kind === 'period') {
    const s = store.get('subscriptions', item.id)
    if (!s || !BILLABLE.includes(s.status) || s.ended_at !== null || Date.parse(s.current_period_end) !== item.at) return false
    if (s.cancel_at_period_end) {
      endAtPeriodEnd(ctx, s.id)
      // the ended period's metered usage is billed once more, after the webhooks of the end
      const final = finalUsageOrder(ctx, s)
      if (final?.paid_at) queue.push({at: Date.parse(final.paid_at), kind: 'payment', id: final.id})
      return true
    }
    const renewal = renewPeriod(ctx, s, cardDeclines(ctx, s.customer_id))
    if (!renewal) return false
    emitRenewal(ctx, renewal)
    queue.push({at: Date.parse(s.current_period_end), kind: 'period', id: s.id})
    const o = renewal.order
    if (o.paid_at !== null) queue.push({at: Date.parse(o.paid_at), kind: 'payment', id: o.id})
    if (o.next_payment_attempt_at) queue.push({at: Date.parse(o.next_payment_attempt_at), kind: 'retry', id: o.id})
    return true
  }
  if (item.kind === 'payment') {
    const o = store.get('orders', item.id)
    if (o?.status !== 'pending' || o.paid_at === null || o.paid_event_sent) return false
    settleOrders(ctx.env, [o], ctx.now)
    return true
  }
  if (item.kind === 'retry') {
    const o = store.get('orders', item.id)
    if (!o?.next_payment_attempt_at || Date.parse(o.next_payment_attempt_at) !== item.at) return false
    const next = retryPayment(ctx, o.id)
    if (next !== undefined) queue.push({at: next, kind: 'retry', id: o.id})
    return true
  }
  const k = store.get('checkouts', item.id)
  if (k?.status !== 'open') return false
  k.status = 'expired'
  k.modified_at = iso(ctx.now)
  emit(ctx.env, 'checkout.expired', presentCheckout(ctx.view, k))
  return true
}

export interface WalkResult {
  /** The environment's time before and after. */
  from: string
  to: string
  /** How many things fell due and were settled. */
  settled: number
  /** The webhook events sent, by type, and in all. */
  events: Record<string, number>
  total_events: number
  /** With `untilNext`: whether that event came (the clock stops at its moment). */
  found?: boolean
}

/**
 * Moves the environment's time from `from` (its time now) to `target`, settling in time order what falls due on the way; with
 * `untilNext`, stops at the moment the first event of that type is sent (or at `target`).
 */
export function advance(env: Env, from: number, target: number, untilNext?: string): WalkResult {
  const events: Record<string, number> = {}
  let moment = from
  let total = 0
  let seen: number | undefined
  const count: EventListener = (_env, type) => {
    events[type] = (events[type] ?? 0) + 1
    total++
    if (type === untilNext) seen ??= moment
  }
  env.listeners.push(count)
  let settled = 0
  let end = target
  try {
    batchSyncs(() =>
      env.store.write(() => {
        const queue = collect(env, from)
        const data = env.store.data
        // two generators seeded by where the walk starts and ends (not by the store's write count, which
        // webhook delivery records move at their own pace): the same steps make the same ids, and the ids
        // of one walk never meet another's
        const a = seededRandom(crc32(`${data.organization.id}:${clockOf(data).settled_to}:${from}:${target}`))
        const b = seededRandom(crc32(`${target}:${from}:${clockOf(data).settled_to}:${data.organization.id}`))
        const random = () => (a() + b()) % 1
        const view: View = {store: env.store, now: from, origin: env.origin}
        withIdSource(random, () => {
          for (let item = queue.peek(); item && item.at <= target && seen === undefined; item = queue.peek()) {
            queue.pop()
            moment = Math.max(item.at, from)
            if (atMoment(env, moment, () => settleOne(contextAt(env, view, moment), item!, queue))) settled++
          }
        })
        end = seen ?? target
        data.clock = {offset_ms: end - env.options.now(), settled_to: iso(end)}
      }),
    )
  } finally {
    env.listeners.splice(env.listeners.indexOf(count), 1)
  }
  return {
    from: iso(from),
    to: iso(end),
    settled,
    events,
    total_events: total,
    ...(untilNext === undefined ? {} : {found: seen !== undefined}),
  }
}
