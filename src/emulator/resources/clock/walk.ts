// The clock's walk: everything that falls due between the environment's time and the target is settled at
// its own moment, in time order, and what it causes (a new period, an order, a payment, a webhook event)
// carries that moment. What is due comes from the store: subscriptions' period ends (renewal, the first
// charge after a trial, or the end of one set to cancel), pending payments, dunning retries, open checkouts
// expiring. The ids it makes are drawn from a generator seeded by the walk's start and end: the same store
// and steps make the same objects.
//
// A walk goes in legs, each one store write (its system events saved with it: core/append-log.ts) that ends
// with the clock at the moment reached and everything due up to it settled: a consistent state. A leg lasts
// about LEG_MS of work (longer on a store whose save is slow); between legs the walk yields, so the emulator
// answers other requests, which see, and may write to, the environment at the moment reached, as do other
// processes serving the store. The next leg starts where this one stopped, or where another walk moved the
// clock since (it never goes back past `settled_to`). The first leg reads the walk's start and target inside
// its write. A walk whose client goes away stops after its leg: what it settled so far is kept.
import type {Ctx, Env, EventListener} from '../../core/http.js'
import {setImmediate as yieldToOthers} from 'node:timers/promises'
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

/** Everything the store holds that falls due from `from` on (`start`: where the walk began). */
function collect(env: Env, from: number, start: number): Queue {
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
    if (k.status !== 'open' || expires < Math.min(start, from)) continue
    queue.push({at: nextQuarterHour(expires), kind: 'checkout', id: k.id})
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

/** How long a leg of a walk works before it saves and yields, at least (see `legBudget`). */
const LEG_MS = 200
/** At most (the store's cross-process lock counts as stale after 10 s). */
const LEG_MAX_MS = 3000

/** A leg works about four times as long as its save takes: the saves then cost a fifth of the walk. */
const legBudget = (saveMs: number) => Math.min(LEG_MAX_MS, Math.max(LEG_MS, 4 * saveMs))

/** The walks under way in this process, per environment (GET /_emulator/clock says whether one is). */
const walks = new WeakMap<Env, number>()

export const walking = (env: Env): boolean => (walks.get(env) ?? 0) > 0

/** What the store's clock settled everything up to (-Infinity: nothing yet). */
function settledTo(env: Env): number {
  const {settled_to} = clockOf(env.store.data)
  return settled_to === null ? Number.NEGATIVE_INFINITY : Date.parse(settled_to)
}

export interface WalkRequest {
  /** Where the walk goes from its start (the clock's time, read inside the first leg's write); throws to refuse. */
  targetOf: (start: number) => number
  /** Stop at the moment the first event of this type is sent (or at the target). */
  untilNext?: string
  /** Aborted: the walk stops after its leg. */
  signal?: AbortSignal
}

/** Moves the environment's time from its time now to the target, settling in time order what falls due on the way. */
export async function advance(env: Env, {targetOf, untilNext, signal}: WalkRequest): Promise<WalkResult> {
  const events: Record<string, number> = {}
  let moment = 0
  let total = 0
  let seen: number | undefined
  /** Inside a leg: what other requests cause between legs is not the walk's. */
  let inLeg = false
  const count: EventListener = (_env, type) => {
    if (!inLeg) return
    events[type] = (events[type] ?? 0) + 1
    total++
    if (type === untilNext) seen ??= moment
  }
  let settled = 0
  let start = 0
  let target = 0
  /** The moment the walk has settled everything up to. */
  let reached = 0
  let random: (() => number) | undefined
  let saveMs = 0
  let done = false

  /** One leg: a store write that ends with the clock at the moment reached. */
  const leg = () => {
    const store = env.store
    let worked = 0
    store.write(() => {
      const data = store.data
      if (random === undefined) {
        // the clock's time now, never before what it settled
        const now = Math.max(env.now(), settledTo(env))
        start = now
        reached = now
        target = targetOf(now)
        // two generators seeded by where the walk starts and ends (not by the store's write count, which
        // webhook delivery records move at their own pace): the same steps make the same ids, and the ids
        // of one walk never meet another's
        const a = seededRandom(crc32(`${data.organization.id}:${clockOf(data).settled_to}:${now}:${target}`))
        const b = seededRandom(crc32(`${target}:${now}:${clockOf(data).settled_to}:${data.organization.id}`))
        random = () => (a() + b()) % 1
      }
      // where the last leg stopped (what falls due after it, at its own moment, though the clock ran on since),
      // or where another walk moved the clock since
      const from = Math.max(reached, settledTo(env))
      const queue = collect(env, from, start)
      const view: View = {store, now: from, origin: env.origin}
      const until = performance.now() + legBudget(saveMs)
      let stopped = false
      // the log's appends flushed to the disk before the store is saved: the events are never behind it
      inLeg = true
      batchSyncs(() =>
        withIdSource(random!, () => {
          reached = from
          for (let item = queue.peek(); item && item.at <= target && seen === undefined; item = queue.peek()) {
            // a leg ends between moments: everything due at the moment reached is settled in it
            if (item.at > reached && performance.now() > until) {
              stopped = true
              break
            }
            queue.pop()
            moment = Math.max(item.at, from)
            reached = moment
            if (atMoment(env, moment, () => settleOne(contextAt(env, view, moment), item!, queue))) settled++
          }
        }),
      )
      inLeg = false
      done = !stopped
      if (done) reached = seen ?? Math.max(target, from)
      data.clock = {offset_ms: reached - env.options.now(), settled_to: iso(reached)}
      worked = performance.now()
    })
    saveMs = performance.now() - worked
  }

  env.listeners.push(count)
  walks.set(env, (walks.get(env) ?? 0) + 1)
  try {
    leg()
    while (!done) {
      await yieldToOthers()
      if (signal?.aborted) {
        const kept = 'its client went away (what it settled is kept)'
        env.options.log(`[${env.name}] the clock's walk stopped at ${iso(reached)}: ${kept}`)
        break
      }
      leg()
    }
  } finally {
    env.listeners.splice(env.listeners.indexOf(count), 1)
    walks.set(env, (walks.get(env) ?? 1) - 1)
  }
  return {
    from: iso(start),
    to: iso(reached),
    settled,
    events,
    total_events: total,
    ...(untilNext === undefined ? {} : {found: seen !== undefined}),
  }
}
