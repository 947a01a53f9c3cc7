// Benefits in the catalog file: type, description, visibility, properties and metadata. The service
// cannot archive a benefit (only delete it), so one that is no longer in the file is reported and kept.
import {z} from 'zod'

import {BENEFIT_TYPES, createBenefit, listBenefits, updateBenefit} from '../../../client/resources/benefits.js'
import type {Item} from '../../../client/resources/common.js'
import {KEY_FIELD} from '../keys.js'
import type {Change, Kind} from './kind.js'
import {canonical, changed, fileMetadata, metadataChanges, metadataSchema, show, VISIBILITIES, type Metadata} from './values.js'

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

const props = (item: Item) => (item.properties ?? {}) as Record<string, unknown>

function toEntry(item: Item): BenefitEntry {
  // Keys sorted at every depth: the same properties give the same lines from any environment.
  const properties = JSON.parse(canonical(props(item))) as Record<string, unknown>
  return {
    type: item.type as BenefitEntry['type'],
    description: String(item.description),
    visibility: (item.visibility as BenefitEntry['visibility']) ?? 'public',
    properties,
    metadata: fileMetadata(item.metadata),
  }
}

/** Properties the file gives are compared; the service fills the ones it leaves out. */
function propertyChanges(entry: BenefitEntry, item: Item): Change[] {
  return Object.keys(entry.properties).sort().flatMap((name) => changed(`properties.${name}`, props(item)[name], entry.properties[name]))
}

const withKey = (metadata: Metadata, key: string) => ({...metadata, [KEY_FIELD]: key}) as Record<string, string>

export const benefits: Kind<BenefitEntry> = {
  section: 'benefits',
  noun: 'benefit',
  schema,
  list: (client) => listBenefits(client, {}, {all: true, limit: 100}),
  label: (item) => String(item.description ?? ''),
  archived: () => false,
  toEntry,
  diff(entry, item) {
    const current = toEntry(item)
    const changes = [
      ...changed('description', current.description, entry.description),
      ...changed('visibility', current.visibility, entry.visibility),
      ...propertyChanges(entry, item),
      ...metadataChanges(current.metadata, entry.metadata),
    ]
    if (current.type !== entry.type) {
      return {changes: [...changed('type', current.type, entry.type), ...changes], blocked: `a benefit's type cannot change (${current.type} -> ${entry.type}): give the new benefit a new key`}
    }
    return {changes}
  },
  describe: (entry) => [
    {field: 'type', to: entry.type},
    {field: 'description', to: show(entry.description)},
    ...(Object.keys(entry.properties).length > 0 ? [{field: 'properties', to: show(entry.properties)}] : []),
    ...(Object.keys(entry.metadata).length > 0 ? [{field: 'metadata', to: show(entry.metadata)}] : []),
  ],
  create: (client, key, entry) =>
    createBenefit(client, {type: entry.type, description: entry.description, visibility: entry.visibility, properties: entry.properties, metadata: withKey(entry.metadata, key)}),
  update: (client, key, entry, item) =>
    updateBenefit(client, item.id, {
      type: entry.type,
      description: entry.description,
      visibility: entry.visibility,
      properties: {...props(item), ...entry.properties},
      metadata: withKey(entry.metadata, key),
    }),
  kept: 'the service cannot archive a benefit, only delete it (till benefits delete)',
}
