// A customer's use of a meter: units consumed since the meter's last reset and units credited
// (`meter.credited` system events, e.g. from a meter_credit benefit), as customer meters and the
// customer state's `active_meters` show them.
import {createHash} from 'node:crypto'

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

/**
 * What a customer used of a meter since its last reset (`meter.reset` system event), and the units
 * credited to it (`meter.credited` system events); null when the customer never touched the meter.
 */
export function customerMeterState(ctx: {store: Store}, customer: CustomerRecord, meter: MeterRecord): CustomerMeterState | null {
  const log = eventsOf(ctx.store)
  const keys = [customer.id, ...(customer.external_id ? [`ext:${customer.external_id}`] : [])]
  const seen = new Set<string>()
  const events: EventRecord[] = []
  for (const key of keys) for (const e of log.byCustomer(key)) if (!seen.has(e.id)) {
    seen.add(e.id)
    events.push(e)
  }
  let resetAt = ''
  let credited = 0
  let first: string | null = null
  let last: string | null = null
  for (const e of events) {
    if (e.source !== 'system' || e.metadata.meter_id !== meter.id) continue
    if (e.name === 'meter.reset' && e.timestamp > resetAt) resetAt = e.timestamp
  }
  const consumed = new Accumulator(meter.aggregation)
  let touched = false
  for (const e of events) {
    if (e.source === 'system') {
      if (e.name === 'meter.credited' && e.metadata.meter_id === meter.id && e.timestamp >= resetAt) {
        credited += Number(e.metadata.units) || 0
        touched = true
      } else continue
    } else if (e.timestamp >= resetAt && matches(e, meter.filter)) {
      consumed.add(e)
      touched = true
    } else continue
    if (first === null || e.timestamp < first) first = e.timestamp
    if (last === null || e.timestamp > last) last = e.timestamp
  }
  if (!touched) return null
  const used = consumed.value()
  return {
    id: customerMeterId(customer.id, meter.id),
    created_at: first!,
    modified_at: last,
    customer_id: customer.id,
    meter_id: meter.id,
    consumed_units: used,
    credited_units: credited,
    balance: credited - used,
  }
}

