// A customer's use of a meter, as the service's customer meters count it: over the window that starts at
// the meter's last reset for that customer (`meter.reset` system event, on each subscription cycle), in
// the order events were ingested: units consumed (the meter's aggregation over the customer's matching
// user events) and units credited (`meter.credited` system events, a running sum that never goes below 0).
import {createHash} from '../../core/crypto.js'

import type {Store} from '../../core/store.js'
import type {CustomerRecord} from '../customers/model.js'
import {events as eventsOf, type EventRecord} from '../events/log.js'
import {Accumulator, matches} from '../meters/aggregate.js'
import type {MeterRecord} from '../meters/model.js'

/** A stable id for a customer's meter, so that a customer meter can be fetched again by id. */
export function customerMeterId(customerId: string, meterId: string): string {
  const h = createHash('sha256').update(`${customerId}:${meterId}`).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`
}

export interface CustomerMeterState {
  id: string
  created_at: string
  modified_at: string | null
  customer_id: string
  meter_id: string
  consumed_units: number
  credited_units: number
  balance: number
}

/** Of the meter's system events: is it this meter's reset, or a credit to it. */
const isReset = (e: EventRecord, meter: MeterRecord) => e.source === 'system' && e.name === 'meter.reset' && e.metadata.meter_id === meter.id
const isCredit = (e: EventRecord, meter: MeterRecord) => e.source === 'system' && e.name === 'meter.credited' && e.metadata.meter_id === meter.id

/** Adds units the way the service sums credits: a running sum that never drops below zero. */
const creditSum = (units: number[]) => units.reduce((sum, u) => Math.max(0, sum + u), 0)

interface Window {
  /** Events of the customer that touch the meter, from the first ever (for the creation time). */
  all: EventRecord[]
  /** The part since the last reset (the reset included). */
  current: EventRecord[]
}

function windowOf(store: Store, customer: CustomerRecord, meter: MeterRecord): Window {
  const all = eventsOf(store)
    .ofCustomer(customer.id, customer.external_id)
    .filter((e) => (e.source === 'system' ? isReset(e, meter) || isCredit(e, meter) : matches(e, meter.filter)))
  let start = 0
  all.forEach((e, i) => {
    if (isReset(e, meter)) start = i
  })
  return {all, current: all.slice(start)}
}

const unitsOf = (e: EventRecord) => Number(e.metadata.units) || 0

function consumed(meter: MeterRecord, events: EventRecord[]): number {
  const acc = new Accumulator(meter.aggregation)
  for (const e of events) if (e.source === 'user') acc.add(e)
  return acc.value()
}

/** The customer's meter now; null when the customer never touched the meter. */
export function customerMeterState(ctx: {store: Store}, customer: CustomerRecord, meter: MeterRecord): CustomerMeterState | null {
  const {all, current} = windowOf(ctx.store, customer, meter)
  if (all.length === 0) return null
  const used = consumed(meter, current)
  const credited = creditSum(current.filter((e) => isCredit(e, meter)).map(unitsOf))
  const times = all.map((e) => e.timestamp).sort()
  return {
    id: customerMeterId(customer.id, meter.id),
    created_at: times[0]!,
    modified_at:
      current
        .map((e) => e.timestamp)
        .sort()
        .at(-1) ?? null,
    customer_id: customer.id,
    meter_id: meter.id,
    consumed_units: used,
    credited_units: credited,
    balance: credited - used,
  }
}

/**
 * The units that carry over into the next window at a reset: what is left of the balance, at most the
 * units credited with `rollover` in this window, never less than zero.
 */
export function rolloverUnits(store: Store, customer: CustomerRecord, meter: MeterRecord): number {
  const {current} = windowOf(store, customer, meter)
  if (current.length === 0) return 0
  const credits = current.filter((e) => isCredit(e, meter))
  const plain = creditSum(credits.filter((e) => e.metadata.rollover !== true).map(unitsOf))
  const rollover = creditSum(credits.filter((e) => e.metadata.rollover === true).map(unitsOf))
  const balance = plain + rollover - consumed(meter, current)
  return Math.max(0, Math.min(Math.floor(balance), rollover))
}
