// Benefits in the catalog file: type, description, visibility, properties and metadata. A meter credit
// names its meter by key (`properties.meter`), not by the environment's id. A downloadables benefit names
// uploaded files, which belong to one environment: it is left out of the file, and kept (and kept attached
// to its products) by apply. The service cannot archive a benefit (only delete it), so one that is no
// longer in the file is reported and kept.
import {z} from 'zod'

import {
  BENEFIT_TYPES,
  createBenefit,
  listBenefits,
  updateBenefit,
  UPDATE_TAKES_VISIBILITY,
  writableProperties,
  type BenefitCreate,
  type BenefitUpdate,
} from '../../../client/resources/benefits.js'
import type {Item} from '../../../client/resources/common.js'
import {KEY_FIELD} from '../keys.js'
import type {Change, Issue, Keys, Kind} from './kind.js'
import {canonical, changed, targetId, fileMetadata, metadataChanges, metadataSchema, show, VISIBILITIES, type Metadata} from './values.js'
import {nounOf} from '../../../client/resources/described.js'

const schema = z
  .object({
    type: z.enum(BENEFIT_TYPES),
    description: z.string().min(3).max(42),
    visibility: z.enum(VISIBILITIES).default('public'),
    properties: z.record(z.string(), z.unknown()).default({}),
    metadata: metadataSchema.default({}),
  })
  .strict()

export type BenefitEntry = z.output<typeof schema>

type Properties = Record<string, unknown>

/** Whether the benefit names objects of its own environment (a downloadable's uploaded files). */
export const envBound = (benefit: Item) => benefit.type === 'downloadables'

/** The properties as the file has them: a meter credit's `meter_id` becomes `meter`, the meter's key. */
function props(item: Item, keys: Keys): Properties {
  const raw = (item.properties ?? {}) as Properties
  if (item.type !== 'meter_credit' || typeof raw.meter_id !== 'string') return raw
  const {meter_id: id, ...rest} = raw
  return {...rest, meter: keys.keyOf('meters', id) ?? id}
}

/** The properties as the service takes them: a meter credit's meter key becomes the target's meter id. */
function serviceProps(entry: BenefitEntry, keys: Keys): Properties {
  if (entry.type !== 'meter_credit' || typeof entry.properties.meter !== 'string') return writableProperties(entry.type, entry.properties)
  const {meter: key, ...rest} = entry.properties
  return {...rest, meter_id: targetId(keys, 'meters', 'meter')(key)}
}

function check(entry: BenefitEntry): Issue[] {
  if (entry.type !== 'meter_credit') return []
  if ('meter_id' in entry.properties)
    return [{path: ['properties', 'meter_id'], message: 'a meter credit names its meter by key: properties.meter (the meters entry), not meter_id'}]
  if (typeof entry.properties.meter !== 'string')
    return [{path: ['properties', 'meter'], message: 'a meter credit names its meter: properties.meter, the key of a meters entry'}]
  return []
}

function toEntry(item: Item, keys: Keys): BenefitEntry {
  // Keys sorted at every depth: the same properties give the same lines from any environment.
  const properties = JSON.parse(canonical(props(item, keys))) as Properties
  return {
    type: item.type as BenefitEntry['type'],
    description: String(item.description),
    visibility: (item.visibility as BenefitEntry['visibility']) ?? 'public',
    properties,
    metadata: fileMetadata(item.metadata),
  }
}

/** Properties the file gives are compared; the service fills the ones it leaves out. */
function propertyChanges(entry: BenefitEntry, item: Item, keys: Keys): Change[] {
  const current = props(item, keys)
  return Object.keys(entry.properties)
    .sort()
    .flatMap((name) => changed(`properties.${name}`, current[name], entry.properties[name]))
}

const withKey = (metadata: Metadata, key: string) => ({...metadata, [KEY_FIELD]: key}) as Record<string, string>

export const benefits: Kind<BenefitEntry> = {
  section: 'benefits',
  noun: nounOf('benefits'),
  schema,
  check,
  references: (entry) =>
    entry.type === 'meter_credit' && typeof entry.properties.meter === 'string'
      ? [{kind: 'meters', key: entry.properties.meter, path: ['properties', 'meter']}]
      : [],
  list: (client) => listBenefits(client, {}, {all: true, limit: 100}),
  label: (item) => String(item.description ?? ''),
  archived: () => false,
  unsupported: (item) => (envBound(item) ? 'names uploaded files of its environment' : undefined),
  toEntry,
  diff(entry, item, keys) {
    const current = toEntry(item, keys)
    const changes = [
      ...changed('description', current.description, entry.description),
      ...changed('visibility', current.visibility, entry.visibility),
      ...propertyChanges(entry, item, keys),
      ...metadataChanges(current.metadata, entry.metadata),
    ]
    if (current.type !== entry.type) {
      return {
        changes: [...changed('type', current.type, entry.type), ...changes],
        blocked: `a benefit's type cannot change (${current.type} -> ${entry.type}): give the new benefit a new key`,
      }
    }
    return {changes}
  },
  describe: (entry) => [
    {field: 'type', to: entry.type},
    {field: 'description', to: show(entry.description)},
    ...(Object.keys(entry.properties).length > 0 ? [{field: 'properties', to: show(entry.properties)}] : []),
    ...(Object.keys(entry.metadata).length > 0 ? [{field: 'metadata', to: show(entry.metadata)}] : []),
  ],
  create: (client, key, entry, keys) =>
    createBenefit(client, {
      type: entry.type,
      description: entry.description,
      visibility: entry.visibility,
      properties: serviceProps(entry, keys),
      metadata: withKey(entry.metadata, key),
    } as BenefitCreate),
  update: (client, key, entry, item, keys) =>
    updateBenefit(client, item.id, {
      type: entry.type,
      description: entry.description,
      ...(UPDATE_TAKES_VISIBILITY[entry.type] ? {visibility: entry.visibility} : {}),
      properties: writableProperties(entry.type, {...((item.properties ?? {}) as Properties), ...serviceProps(entry, keys)}),
      metadata: withKey(entry.metadata, key),
    } as BenefitUpdate),
  kept: 'the service cannot archive a benefit, only delete it (till benefits delete)',
}
