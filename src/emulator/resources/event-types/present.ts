// Event types: stored records (and the events' statistics) -> the API's wire shapes.
import type {Store} from '../../core/store.js'
import type {EventName} from '../events/log.js'
import {eventLabel} from './labels.js'
import type {EventTypeRecord} from './model.js'

export function eventType(store: Store, t: EventTypeRecord) {
  return {
    created_at: t.created_at,
    modified_at: t.modified_at,
    id: t.id,
    name: t.name,
    label: t.label,
    label_property_selector: t.label_property_selector,
    organization_id: store.data.organization.id,
  }
}

/** EventTypeWithStats: a system name without a stored type has no id and no times. */
export function eventTypeWithStats(store: Store, stats: EventName, t: EventTypeRecord | undefined) {
  return {
    id: t?.id ?? null,
    created_at: t?.created_at ?? null,
    modified_at: t?.modified_at ?? null,
    name: stats.name,
    label: eventLabel(store, stats.name, stats.source),
    label_property_selector: t?.label_property_selector ?? null,
    organization_id: store.data.organization.id,
    source: stats.source,
    occurrences: stats.occurrences,
    first_seen: stats.first_seen,
    last_seen: stats.last_seen,
  }
}
