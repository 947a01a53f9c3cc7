// Columns of events, event names, meters, meter quantities and customer meters.
import {child, column, type ResourceColumns, type Row} from '../../cli/output/columns.js'

/** `sum(tokens)`, `count`... from a meter's aggregation. */
export function aggregationText(value: unknown): string {
  const a = child(value)
  if (!a) return ''
  return a.func === 'count' ? 'count' : `${String(a.func)}(${String(a.property ?? '')})`
}

/** `name eq "api.call" and tokens gt 0` from a meter's filter. */
export function filterText(value: unknown): string {
  const f = child(value)
  if (!f || !Array.isArray(f.clauses)) return ''
  const parts = (f.clauses as Row[]).map((c) => ('clauses' in c ? `(${filterText(c)})` : `${String(c.property)} ${String(c.operator)} ${JSON.stringify(c.value)}`))
  return parts.join(` ${String(f.conjunction)} `)
}

const metadataText = (row: Row) => (row.metadata && Object.keys(row.metadata as object).length > 0 ? JSON.stringify(row.metadata) : '')

export const usageColumns: Record<string, ResourceColumns> = {
  events: {
    columns: [
      column('id', 'ID', 'id'),
      column('timestamp', 'Time', 'date'),
      column('name', 'Name', 'text'),
      column('source', 'Source', 'text'),
      column('customer', 'Customer', 'text', (row) => child(row.customer)?.email ?? row.external_customer_id ?? row.customer_id),
      column('external_customer_id', 'External customer', 'text'),
      column('metadata', 'Metadata', 'text', metadataText),
    ],
    defaults: ['id', 'timestamp', 'name', 'source', 'customer', 'metadata'],
    fields: ['id', 'timestamp', 'organization_id', 'customer_id', 'customer', 'external_customer_id', 'child_count', 'parent_id', 'label', 'name', 'source', 'metadata'],
  },
  'event-names': {
    columns: [
      column('name', 'Name', 'text'),
      column('source', 'Source', 'text'),
      column('occurrences', 'Occurrences', 'text'),
      column('first_seen', 'First seen', 'date'),
      column('last_seen', 'Last seen', 'date'),
    ],
    defaults: ['name', 'source', 'occurrences', 'first_seen', 'last_seen'],
    fields: ['name', 'label', 'source', 'occurrences', 'first_seen', 'last_seen'],
  },
  'event-types': {
    columns: [
      column('id', 'ID', 'id'),
      column('name', 'Name', 'text'),
      column('label', 'Label', 'text'),
      column('source', 'Source', 'text'),
      column('occurrences', 'Occurrences', 'text'),
      column('last_seen', 'Last seen', 'date'),
    ],
    defaults: ['id', 'name', 'label', 'source', 'occurrences', 'last_seen'],
    fields: ['id', 'created_at', 'modified_at', 'name', 'label', 'label_property_selector', 'organization_id', 'source', 'occurrences', 'first_seen', 'last_seen'],
  },
  meters: {
    columns: [
      column('id', 'ID', 'id'),
      column('name', 'Name', 'text'),
      column('aggregation', 'Aggregation', 'text', (row) => aggregationText(row.aggregation)),
      column('filter', 'Filter', 'text', (row) => filterText(row.filter)),
      column('unit', 'Unit', 'text'),
      column('archived_at', 'Archived', 'date'),
      column('created_at', 'Created', 'date'),
    ],
    defaults: ['id', 'name', 'aggregation', 'filter', 'archived_at', 'created_at'],
    fields: ['id', 'created_at', 'modified_at', 'name', 'unit', 'custom_label', 'custom_multiplier', 'filter', 'aggregation', 'organization_id', 'archived_at', 'metadata'],
  },
  'meter-quantities': {
    columns: [column('timestamp', 'Period', 'text'), column('quantity', 'Quantity', 'text')],
    defaults: ['timestamp', 'quantity'],
    fields: ['timestamp', 'quantity'],
  },
  'customer-meters': {
    columns: [
      column('id', 'ID', 'id'),
      column('customer', 'Customer', 'text', (row) => child(row.customer)?.email ?? row.customer_id),
      column('meter', 'Meter', 'text', (row) => child(row.meter)?.name ?? row.meter_id),
      column('consumed_units', 'Consumed', 'text'),
      column('credited_units', 'Credited', 'text'),
      column('balance', 'Balance', 'text'),
      column('modified_at', 'Modified', 'date'),
    ],
    defaults: ['id', 'customer', 'meter', 'consumed_units', 'credited_units', 'balance', 'modified_at'],
    fields: ['id', 'created_at', 'modified_at', 'customer_id', 'meter_id', 'consumed_units', 'credited_units', 'balance', 'customer', 'meter'],
  },
  'portal-meters': {
    columns: [
      column('id', 'ID', 'id'),
      column('meter', 'Meter', 'text', (row) => child(row.meter)?.name ?? row.meter_id),
      column('consumed_units', 'Consumed', 'text'),
      column('credited_units', 'Credited', 'text'),
      column('balance', 'Balance', 'text'),
      column('modified_at', 'Modified', 'date'),
    ],
    defaults: ['id', 'meter', 'consumed_units', 'credited_units', 'balance', 'modified_at'],
    fields: ['id', 'created_at', 'modified_at', 'customer_id', 'meter_id', 'consumed_units', 'credited_units', 'balance', 'meter'],
  },
}
