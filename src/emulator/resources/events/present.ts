// Events: stored records -> the API's wire shapes (the SDK's Event union and EventName).
import type {Ctx} from '../../core/http.js'
import {customer} from '../customers/present.js'
import {events, type EventName, type EventRecord} from './log.js'

export function presentEvent(ctx: Ctx, e: EventRecord) {
  const c = e.customer_id === null ? undefined : ctx.store.get('customers', e.customer_id)
  return {
    id: e.id,
    timestamp: e.timestamp,
    organization_id: ctx.store.data.organization.id,
    customer_id: e.customer_id,
    customer: c ? customer(ctx.view, c) : null,
    external_customer_id: e.external_customer_id,
    child_count: events(ctx.store).childCount(e.id),
    parent_id: e.parent_id,
    label: e.name,
    name: e.name,
    source: e.source,
    metadata: e.metadata,
  }
}

export const presentName = (n: EventName) => ({name: n.name, label: n.name, source: n.source, occurrences: n.occurrences, first_seen: n.first_seen, last_seen: n.last_seen})
