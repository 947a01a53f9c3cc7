// Webhook endpoints in the catalog file: url, name, format and the events sent. Never the signing secret:
// pull leaves it out, and an endpoint apply creates gets a new one from the service, which till does not
// print (apply says on stderr how to get it). An endpoint has no metadata to record a key in: its key is
// always derived from its name (or its URL when unnamed), and an entry finds its endpoint by URL (a new URL
// is a new endpoint, with a new secret). With --prune, an endpoint no longer in the file
// is disabled (`enabled: false`, as the service allows); disabled endpoints are not in the file, and one
// that is in the file again is enabled.
import {z} from 'zod'

import type {Item} from '../../../client/resources/common.js'
import {createEndpoint, listEndpoints, updateEndpoint, WEBHOOK_FORMATS} from '../../../client/resources/webhooks.js'
import {WEBHOOK_EVENTS} from '../../../client/webhook-events.js'
import type {Kind} from './kind.js'
import {changed, show} from './values.js'
import {nounOf} from '../../../client/resources/described.js'

const schema = z
  .object({
    url: z.url({protocol: /^https?$/}),
    name: z.string().min(1).max(256).nullable().default(null),
    format: z.enum(WEBHOOK_FORMATS).default('raw'),
    events: z.array(z.enum(WEBHOOK_EVENTS)).min(1),
  })
  .strict()

export type WebhookEndpointEntry = z.output<typeof schema>

function toEntry(item: Item): WebhookEndpointEntry {
  return {
    url: String(item.url),
    name: (item.name as string | null | undefined) ?? null,
    format: (item.format as WebhookEndpointEntry['format']) ?? 'raw',
    events: [...((item.events ?? []) as WebhookEndpointEntry['events'])].sort(),
  }
}

const body = (entry: WebhookEndpointEntry) => ({
  url: entry.url,
  format: entry.format,
  events: [...entry.events].sort(),
  ...(entry.name === null ? {} : {name: entry.name}),
})

export const webhookEndpoints: Kind<WebhookEndpointEntry> = {
  section: 'webhook_endpoints',
  noun: nounOf('webhook-endpoints'),
  schema,
  keyed: false,
  identity: {name: 'URL', entry: (entry) => entry.url, item: (item) => String(item.url)},
  list: (client) => listEndpoints(client, {all: true, limit: 100}),
  label: (item) => String(item.name || item.url || 'webhook'),
  archived: (item) => item.enabled === false,
  toEntry,
  diff(entry, item) {
    const current = toEntry(item)
    return {
      changes: [
        ...changed('name', current.name, entry.name),
        ...changed('format', current.format, entry.format),
        ...changed('events', current.events, [...entry.events].sort()),
      ],
    }
  },
  describe: (entry) => [
    {field: 'url', to: entry.url},
    ...(entry.name === null ? [] : [{field: 'name', to: show(entry.name)}]),
    {field: 'events', to: [...entry.events].sort().join(', ')},
  ],
  create: (client, _key, entry) => createEndpoint(client, body(entry)),
  update: (client, _key, entry, item) => updateEndpoint(client, item.id, {...body(entry), ...(item.enabled === false ? {enabled: true} : {})}),
  archive: (client, item) => updateEndpoint(client, item.id, {enabled: false}),
  archiveWord: 'disable',
  created: (key, item) =>
    `Webhook endpoint ${key} (${item.id}) has a new signing secret, which till does not show: get one for your receiver with "till webhooks endpoints reset-secret ${item.id}" (it replaces the secret and prints the new one once).`,
}
