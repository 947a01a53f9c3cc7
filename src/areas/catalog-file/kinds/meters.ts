// Meters in the catalog file: name, the filter that picks events (clauses, nested groups), the
// aggregation, the unit and metadata. A meter no longer in the file is archived with --prune (the
// service's update `is_archived`; it never deletes a meter). The service refuses a new filter or
// aggregation once the meter has aggregated events: the plan says so, and the service has the last word.
import {z} from 'zod'

import type {Item} from '../../../client/resources/common.js'
import {AGGREGATIONS, FILTER_OPERATORS, createMeter, listMeters, updateMeter, type MeterFilter} from '../../../client/resources/meters.js'
import {KEY_FIELD} from '../keys.js'
import type {Change, Kind} from './kind.js'
import {canonical, changed, fileMetadata, metadataChanges, metadataSchema, show, type Metadata} from './values.js'
import {nounOf} from '../../../client/resources/described.js'

const clause = z.object({property: z.string().min(1), operator: z.enum(FILTER_OPERATORS), value: z.union([z.string(), z.int(), z.boolean()])}).strict()
const filter: z.ZodType<MeterFilter> = z.lazy(() => z.object({conjunction: z.enum(['and', 'or']), clauses: z.array(z.union([clause, filter]))}).strict())
const aggregation = z.discriminatedUnion('func', [
  z.object({func: z.literal('count')}).strict(),
  z.object({func: z.enum(AGGREGATIONS.filter((a) => a !== 'count') as ['sum', 'max', 'min', 'avg', 'unique']), property: z.string().min(1)}).strict(),
])

const schema = z
  .object({
    name: z.string().min(3),
    filter,
    aggregation,
    unit: z.enum(['scalar', 'token', 'custom']).default('scalar'),
    custom_label: z.string().min(1).nullable().default(null),
    custom_multiplier: z.int().gt(0).nullable().default(null),
    metadata: metadataSchema.default({}),
  })
  .strict()

export type MeterEntry = z.output<typeof schema>

/** The filter with its keys in reading order at every depth: the same filter gives the same lines from any environment. */
function ordered(f: MeterFilter): MeterFilter {
  return {
    conjunction: f.conjunction,
    clauses: f.clauses.map((c) => ('clauses' in c ? ordered(c) : {property: c.property, operator: c.operator, value: c.value})),
  }
}

function toEntry(item: Item): MeterEntry {
  const a = item.aggregation as {func: string; property?: string}
  return {
    name: String(item.name),
    filter: ordered(item.filter as MeterFilter),
    aggregation: (a.func === 'count' ? {func: 'count'} : {func: a.func, property: a.property}) as MeterEntry['aggregation'],
    unit: (item.unit as MeterEntry['unit']) ?? 'scalar',
    custom_label: (item.custom_label as string | null) ?? null,
    custom_multiplier: (item.custom_multiplier as number | null) ?? null,
    metadata: fileMetadata(item.metadata),
  }
}

const IMMUTABLE = 'the service refuses this once the meter has aggregated events: then give the changed meter a new key (and archive the old one with --prune)'

const withKey = (metadata: Metadata, key: string) => ({...metadata, [KEY_FIELD]: key})

const body = (key: string, entry: MeterEntry) => ({
  name: entry.name,
  filter: entry.filter,
  aggregation: entry.aggregation,
  unit: entry.unit,
  ...(entry.custom_label === null ? {} : {custom_label: entry.custom_label}),
  ...(entry.custom_multiplier === null ? {} : {custom_multiplier: entry.custom_multiplier}),
  metadata: withKey(entry.metadata, key),
})

export const meters: Kind<MeterEntry> = {
  section: 'meters',
  noun: nounOf('meters'),
  schema,
  list: (client) => listMeters(client, {}, {all: true, limit: 100}),
  label: (item) => String(item.name ?? ''),
  archived: (item) => item.archived_at !== null && item.archived_at !== undefined,
  toEntry,
  diff(entry, item) {
    const current = toEntry(item)
    const changes: Change[] = [
      ...changed('name', current.name, entry.name),
      ...changed('filter', current.filter, entry.filter, IMMUTABLE),
      ...changed('aggregation', current.aggregation, entry.aggregation, IMMUTABLE),
      ...changed('unit', current.unit, entry.unit),
      ...changed('custom_label', current.custom_label, entry.custom_label),
      ...changed('custom_multiplier', current.custom_multiplier, entry.custom_multiplier),
      ...metadataChanges(current.metadata, entry.metadata),
    ]
    return {changes}
  },
  describe: (entry) => [
    {field: 'name', to: show(entry.name)},
    {field: 'filter', to: show(entry.filter)},
    {field: 'aggregation', to: show(entry.aggregation)},
  ],
  create: (client, key, entry) => createMeter(client, body(key, entry)),
  update(client, key, entry, item) {
    const current = toEntry(item)
    const {filter: f, aggregation: a, ...rest} = body(key, entry)
    // only what changed of the filter and the aggregation: the service refuses either once it has aggregated events
    return updateMeter(client, item.id, {
      ...rest,
      custom_label: entry.custom_label,
      custom_multiplier: entry.custom_multiplier,
      ...(canonical(current.filter) === canonical(entry.filter) ? {} : {filter: f}),
      ...(canonical(current.aggregation) === canonical(entry.aggregation) ? {} : {aggregation: a}),
      ...(meters.archived(item) ? {is_archived: false} : {}),
    })
  },
  archive: (client, item) => updateMeter(client, item.id, {is_archived: true}),
  usedBy(item, staying) {
    const credits = staying.find(
      (s) => s.kind === 'benefits' && s.item.type === 'meter_credit' && (s.item.properties as {meter_id?: unknown} | undefined)?.meter_id === item.id,
    )
    if (credits) return `benefit ${credits.key} still credits it`
    const bills = staying.find(
      (s) =>
        s.kind === 'products' &&
        s.item.is_archived !== true &&
        ((s.item.prices ?? []) as Item[]).some((p) => p.amount_type === 'metered_unit' && p.is_archived !== true && p.meter_id === item.id),
    )
    return bills ? `product ${bills.key} still bills it` : undefined
  },
}
