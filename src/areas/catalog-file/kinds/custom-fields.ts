// Custom checkout fields in the catalog file: type, slug, name, properties (form label, options...) and
// metadata; products attach them by key. A key not yet recorded is derived from the slug, which the
// service keeps unique. The service cannot archive a custom field (only delete it), so one no longer in
// the file is reported and kept; its type cannot change.
import {z} from 'zod'

import type {Item} from '../../../client/resources/common.js'
import {
  CUSTOM_FIELD_TYPES,
  createCustomField,
  listCustomFields,
  updateCustomField,
  type CustomFieldCreate,
  type CustomFieldUpdate,
} from '../../../client/resources/custom-fields.js'
import {KEY_FIELD} from '../keys.js'
import type {Kind} from './kind.js'
import {canonical, changed, fileMetadata, metadataChanges, metadataSchema, show, type Metadata} from './values.js'
import {nounOf} from '../../../client/resources/described.js'

const schema = z
  .object({
    type: z.enum(CUSTOM_FIELD_TYPES),
    slug: z
      .string()
      .min(1)
      .max(250)
      .regex(/^[a-z0-9_-]+$/, 'a slug is lower-case letters, digits, "-" and "_"'),
    name: z.string().min(1),
    properties: z.record(z.string(), z.unknown()).default({}),
    metadata: metadataSchema.default({}),
  })
  .strict()

export type CustomFieldEntry = z.output<typeof schema>

function toEntry(item: Item): CustomFieldEntry {
  return {
    type: item.type as CustomFieldEntry['type'],
    slug: String(item.slug),
    name: String(item.name),
    properties: JSON.parse(canonical(item.properties ?? {})) as Record<string, unknown>,
    metadata: fileMetadata(item.metadata),
  }
}

const withKey = (metadata: Metadata, key: string) => ({...metadata, [KEY_FIELD]: key})

export const customFields: Kind<CustomFieldEntry> = {
  section: 'custom_fields',
  noun: nounOf('custom-fields'),
  schema,
  check: (entry) =>
    entry.type === 'select' && !Array.isArray(entry.properties.options)
      ? [{path: ['properties', 'options'], message: 'a select field lists its options: [{value, label}, ...]'}]
      : [],
  list: (client) => listCustomFields(client, {}, {all: true, limit: 100}),
  label: (item) => String(item.slug ?? item.name ?? ''),
  archived: () => false,
  toEntry,
  diff(entry, item) {
    const current = toEntry(item)
    const changes = [
      ...changed('slug', current.slug, entry.slug),
      ...changed('name', current.name, entry.name),
      ...changed('properties', current.properties, entry.properties),
      ...metadataChanges(current.metadata, entry.metadata),
    ]
    if (current.type !== entry.type) {
      return {
        changes: [...changed('type', current.type, entry.type), ...changes],
        blocked: `a custom field's type cannot change (${current.type} -> ${entry.type}): give the new field a new key and a new slug`,
      }
    }
    return {changes}
  },
  describe: (entry) => [
    {field: 'type', to: entry.type},
    {field: 'slug', to: entry.slug},
    {field: 'name', to: show(entry.name)},
    ...(Object.keys(entry.properties).length > 0 ? [{field: 'properties', to: show(entry.properties)}] : []),
  ],
  create: (client, key, entry) =>
    createCustomField(client, {
      type: entry.type,
      slug: entry.slug,
      name: entry.name,
      properties: entry.properties,
      metadata: withKey(entry.metadata, key),
    } as CustomFieldCreate),
  update: (client, key, entry, item) =>
    updateCustomField(client, item.id, {
      type: entry.type,
      slug: entry.slug,
      name: entry.name,
      properties: entry.properties,
      metadata: withKey(entry.metadata, key),
    } as CustomFieldUpdate),
  kept: 'the service cannot archive a custom field, only delete it (till custom-fields delete)',
}
