// Columns of events, event names, meters, meter quantities and customer meters.
import {child, type ResourceColumns, type Row} from '../../cli/output/columns.js'
import {columnsOf} from '../../cli/output/typed-columns.js'
import type {Schema} from '../../client/wire/index.js'

const event = columnsOf<Schema<'Event'>>()
const eventName = columnsOf<Schema<'EventName'>>()
const eventType = columnsOf<Schema<'EventTypeWithStats'>>()
const meter = columnsOf<Schema<'Meter'>>()
const quantity = columnsOf<Schema<'MeterQuantity'>>()
const customerMeter = columnsOf<Schema<'CustomerMeter'>>()
const portalMeter = columnsOf<Schema<'CustomerCustomerMeter'>>()
const dashboard = columnsOf<Schema<'MetricDashboardSchema'>>()

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
  const parts = (f.clauses as Row[]).map((c) =>
    'clauses' in c ? `(${filterText(c)})` : `${String(c.property)} ${String(c.operator)} ${JSON.stringify(c.value)}`,
  )
  return parts.join(` ${String(f.conjunction)} `)
}

const metadataText = (row: Row) => (row.metadata && Object.keys(row.metadata as object).length > 0 ? JSON.stringify(row.metadata) : '')

export const usageColumns: Record<string, ResourceColumns> = {
  'metric-dashboards': {
    columns: [
      dashboard.column('id', 'ID', 'id'),
      dashboard.column('name', 'Name', 'text'),
      dashboard.column('metrics', 'Metrics', 'text', (row) => (Array.isArray(row.metrics) ? row.metrics.join(', ') : '')),
      dashboard.column('created_at', 'Created', 'date'),
    ],
    defaults: ['id', 'name', 'metrics', 'created_at'],
    fields: dashboard.fields(['id', 'created_at', 'modified_at', 'name', 'metrics', 'organization_id']),
  },
  events: {
    columns: [
      event.column('id', 'ID', 'id'),
      event.column('timestamp', 'Time', 'date'),
      event.column('name', 'Name', 'text'),
      event.column('source', 'Source', 'text'),
      event.column('customer', 'Customer', 'text', (row) => child(row.customer)?.email ?? row.external_customer_id ?? row.customer_id),
      event.column('external_customer_id', 'External customer', 'text'),
      event.column('metadata', 'Metadata', 'text', metadataText),
    ],
    defaults: ['id', 'timestamp', 'name', 'source', 'customer', 'metadata'],
    fields: event.fields([
      'id',
      'timestamp',
      'organization_id',
      'customer_id',
      'customer',
      'external_customer_id',
      'child_count',
      'parent_id',
      'label',
      'name',
      'source',
      'metadata',
      'member_id',
      'external_member_id',
    ]),
  },
  'event-names': {
    columns: [
      eventName.column('name', 'Name', 'text'),
      eventName.column('source', 'Source', 'text'),
      eventName.column('occurrences', 'Occurrences', 'text'),
      eventName.column('first_seen', 'First seen', 'date'),
      eventName.column('last_seen', 'Last seen', 'date'),
    ],
    defaults: ['name', 'source', 'occurrences', 'first_seen', 'last_seen'],
    fields: eventName.fields(['name', 'label', 'source', 'occurrences', 'first_seen', 'last_seen']),
  },
  'event-types': {
    columns: [
      eventType.column('id', 'ID', 'id'),
      eventType.column('name', 'Name', 'text'),
      eventType.column('label', 'Label', 'text'),
      eventType.column('source', 'Source', 'text'),
      eventType.column('occurrences', 'Occurrences', 'text'),
      eventType.column('last_seen', 'Last seen', 'date'),
    ],
    defaults: ['id', 'name', 'label', 'source', 'occurrences', 'last_seen'],
    fields: eventType.fields([
      'id',
      'created_at',
      'modified_at',
      'name',
      'label',
      'label_property_selector',
      'organization_id',
      'source',
      'occurrences',
      'first_seen',
      'last_seen',
    ]),
  },
  meters: {
    columns: [
      meter.column('id', 'ID', 'id'),
      meter.column('name', 'Name', 'text'),
      meter.column('aggregation', 'Aggregation', 'text', (row) => aggregationText(row.aggregation)),
      meter.column('filter', 'Filter', 'text', (row) => filterText(row.filter)),
      meter.column('unit', 'Unit', 'text'),
      meter.column('archived_at', 'Archived', 'date'),
      meter.column('created_at', 'Created', 'date'),
    ],
    defaults: ['id', 'name', 'aggregation', 'filter', 'archived_at', 'created_at'],
    fields: meter.fields([
      'id',
      'created_at',
      'modified_at',
      'name',
      'unit',
      'custom_label',
      'custom_multiplier',
      'filter',
      'aggregation',
      'organization_id',
      'archived_at',
      'metadata',
    ]),
  },
  'meter-quantities': {
    columns: [quantity.column('timestamp', 'Period', 'text'), quantity.column('quantity', 'Quantity', 'text')],
    defaults: ['timestamp', 'quantity'],
    fields: quantity.fields(['timestamp', 'quantity']),
  },
  'customer-meters': {
    columns: [
      customerMeter.column('id', 'ID', 'id'),
      customerMeter.column('customer', 'Customer', 'text', (row) => child(row.customer)?.email ?? row.customer_id),
      customerMeter.column('meter', 'Meter', 'text', (row) => child(row.meter)?.name ?? row.meter_id),
      customerMeter.column('consumed_units', 'Consumed', 'text'),
      customerMeter.column('credited_units', 'Credited', 'text'),
      customerMeter.column('balance', 'Balance', 'text'),
      customerMeter.column('modified_at', 'Modified', 'date'),
    ],
    defaults: ['id', 'customer', 'meter', 'consumed_units', 'credited_units', 'balance', 'modified_at'],
    fields: customerMeter.fields([
      'id',
      'created_at',
      'modified_at',
      'customer_id',
      'meter_id',
      'consumed_units',
      'credited_units',
      'balance',
      'customer',
      'meter',
    ]),
  },
  'portal-meters': {
    columns: [
      portalMeter.column('id', 'ID', 'id'),
      portalMeter.column('meter', 'Meter', 'text', (row) => child(row.meter)?.name ?? row.meter_id),
      portalMeter.column('consumed_units', 'Consumed', 'text'),
      portalMeter.column('credited_units', 'Credited', 'text'),
      portalMeter.column('balance', 'Balance', 'text'),
      portalMeter.column('modified_at', 'Modified', 'date'),
    ],
    defaults: ['id', 'meter', 'consumed_units', 'credited_units', 'balance', 'modified_at'],
    fields: portalMeter.fields(['id', 'created_at', 'modified_at', 'customer_id', 'meter_id', 'consumed_units', 'credited_units', 'balance', 'meter']),
  },
}
