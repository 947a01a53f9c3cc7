// One line each for what the emulator's control commands did (`--json` prints the objects instead): a
// renewal, a payment, a dispute, the clock's time and an advance of it.
import {formatMoney, terminalText} from '../../cli/output/format.js'

type Json = Record<string, unknown>

const t = (value: unknown) => terminalText(String(value ?? ''))
const money = (o: Json, key: string) => (typeof o[key] === 'number' ? formatMoney(o[key] as number, String(o.currency ?? 'usd')) : '?')
/** `2027-01-28T09:43:00.000Z` -> `2027-01-28 09:43 UTC` */
const when = (value: unknown) => (typeof value === 'string' ? `${t(value).slice(0, 16).replace('T', ' ')} UTC` : '?')

const DAY = 86_400_000

/** How far ahead of the wall clock: `35 days ahead`, `3 hours ahead`, `on the wall clock`. */
export function ahead(offsetMs: number): string {
  if (Math.abs(offsetMs) < 60_000) return 'on the wall clock'
  if (offsetMs >= DAY) return `${Math.round(offsetMs / DAY)} days ahead of the wall clock`
  if (offsetMs >= 3_600_000) return `${Math.round(offsetMs / 3_600_000)} hours ahead of the wall clock`
  return `${Math.round(offsetMs / 60_000)} minutes ahead of the wall clock`
}

export function renewalLine(result: {subscription: Json; order: Json}): string {
  const s = result.subscription
  const o = result.order
  const payment = s.status === 'past_due' ? `payment failed: past_due, next retry ${when(o.next_payment_attempt_at)}` : 'paid after the payment delay'
  return `Renewed subscription ${t(s.id)}: period ${when(s.current_period_start)} to ${when(s.current_period_end)}, order ${t(o.id)} ${money(o, 'total_amount')} (${payment}).`
}

export function paidLine(order: Json): string {
  return `Paid order ${t(order.id)}: ${money(order, 'total_amount')}, ${t(order.status)}.`
}

export function disputeLine(dispute: Json): string {
  return `Opened dispute ${t(dispute.id)} on order ${t(dispute.order_id)}: ${money(dispute, 'amount')}, ${t(dispute.status)} (${t(dispute.reason)}).`
}

export interface ClockState {
  environment: string
  now: string
  offset_ms: number
  settled_to: string | null
}

export function clockLine(c: ClockState): string {
  return `${t(c.environment)}: ${when(c.now)} (${ahead(c.offset_ms)}${c.settled_to ? `; settled up to ${when(c.settled_to)}` : ''}).`
}

export interface Advance {
  from: string
  to: string
  settled: number
  events: Record<string, number>
  total_events: number
  found?: boolean
}

export function advanceLine(environment: string, a: Advance): string {
  const kinds = Object.entries(a.events)
    .sort(([x, n], [y, m]) => m - n || (x < y ? -1 : 1))
    .map(([type, n]) => `${t(type)} ${n}`)
  const events = a.total_events === 0 ? 'no events' : `${a.total_events} events (${kinds.join(', ')})`
  return `${t(environment)}: ${when(a.from)} to ${when(a.to)}; ${a.settled} things fell due and were settled; ${events}.`
}

export function migratedLine(s: Json, provider: string, providerId: string): string {
  const sent = 'subscription.migrated and subscription.updated sent'
  return `Migrated subscription ${t(s.id)} from ${t(provider)} ${t(providerId)}: ${sent}.`
}
