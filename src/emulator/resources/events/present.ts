// Events: stored records -> the API's wire shapes (the SDK's Event union and EventName).
import type {Ctx} from '../../core/http.js'
import type {Store} from '../../core/store.js'
import {customer} from '../customers/present.js'
import {eventLabel} from '../event-types/labels.js'
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
    label: eventLabel(ctx.store, e.name, e.source),
    name: e.name,
    source: e.source,
    metadata: e.metadata,
  }
}

export const presentName = (store: Store, n: EventName) => ({
  name: n.name,
  label: eventLabel(store, n.name, n.source),
  source: n.source,
  occurrences: n.occurrences,
  first_seen: n.first_seen,
  last_seen: n.last_seen,
})
