// Webhook endpoints and deliveries (server/polar/webhook/endpoints.py). Delivery itself happens elsewhere.
import {z} from '../../core/zod.js'

import {API_VERSIONS, type ApiVersion, isKnownApiVersion} from '../../../client/version.js'
import {WEBHOOK_EVENTS, WEBHOOK_EVENTS_BY_VERSION} from '../../../client/webhook-events.js'
import {checkOrganization, noContent, ok, type Ctx, type Router} from '../../core/http.js'
import {newWebhookSecret} from '../../core/events.js'
import {uuid} from '../../core/ids.js'
import {after, before, byField} from '../../core/list.js'
import {finder, getRoute, listRoute, lookup, organizationScope, pathId} from '../../core/toolkit.js'
import type {WebhookDeliveryRecord, WebhookEndpointRecord, WebhookEventRecord} from './model.js'
import {DEFAULT_PAYLOAD_VERSION} from './model.js'
import * as present from './present.js'
import {parse} from '../../core/validate.js'

export {WEBHOOK_EVENTS}

/** The emulator runs on loopback, so it also delivers to these hosts, over http too. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost'])

function isPrivateHost(host: string): boolean {
  const h = host.toLowerCase()
  if (h === 'localhost' || h.endsWith('.localhost')) return true
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(h)
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])]
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127)
    )
  }
  if (h.startsWith('[')) {
    const v6 = h.slice(1, -1)
    return v6 === '::' || v6 === '::1' || /^f[cd]/.test(v6) || /^fe[89ab]/.test(v6) || v6.startsWith('::ffff:')
  }
  return false
}

/** https only, and not to a local or private address; loopback excepted for the emulator. */
const endpointUrl = z
  .url({protocol: /^https?$/})
  .max(2083)
  .superRefine((value, issue) => {
    // zod runs refinements even after the URL check failed; that failure is already reported.
    if (!URL.canParse(value)) return
    const url = new URL(value)
    if (LOOPBACK_HOSTS.has(url.hostname)) return
    if (url.protocol !== 'https:') issue.addIssue({code: 'custom', message: "URL scheme should be 'https'", input: value})
    else if (isPrivateHost(url.hostname)) issue.addIssue({code: 'custom', message: 'URL must not point to a local or private address.', input: value})
  })

const format = z.enum(['raw', 'discord', 'slack'])

/**
 * The payloads' version: a `YYYY-MM` string the service serves, whatever the request's version
 * (server/polar/webhook/schemas.py `_is_available_version`, after kit/versioning.py `APIVersion.parse`).
 */
const apiVersion = z.string().superRefine((value, issue) => {
  let refused: string | undefined
  if (!/^\d{4}-\d{2}$/.test(value)) refused = 'Invalid version string'
  else if (!isKnownApiVersion(value)) refused = 'Invalid API version'
  if (refused) issue.addIssue({code: 'custom', message: `Value error, ${refused}: ${value}`, input: value})
})

/**
 * The bodies of each request version: the event types are that version's (WebhookEventType). A secret of
 * the merchant's own (at least 32 characters) is taken on 2026-04 only (DeprecatedWebhookEndpointCreateWithSecret);
 * from 2026-10 the schemas have no `secret`, and pydantic ignores a key a model does not declare
 * (polar/kit/schemas.py `Schema` sets no `extra`), so a given one is dropped (polarsource/polar #14400).
 */
const bodies = (version: ApiVersion) => {
  const events = z.array(z.enum(WEBHOOK_EVENTS_BY_VERSION[version] as [string, ...string[]]))
  const secret = version === '2026-04' ? {secret: z.string().min(32).nullish()} : {}
  const create = z.object({
    url: endpointUrl,
    format,
    events,
    name: z.string().max(256).nullish(),
    api_version: apiVersion.default(DEFAULT_PAYLOAD_VERSION),
    ...secret,
    organization_id: z.uuid().nullish(),
  })
  const update = z.object({
    url: endpointUrl.nullish(),
    format: format.nullish(),
    events: events.nullish(),
    name: z.string().max(256).nullish(),
    api_version: apiVersion.nullish(),
    ...secret,
    enabled: z.boolean().nullish(),
  })
  return {create, update}
}
/** The merchant's secret of a 2026-04 body, if it gave one. */
const givenSecret = (input: object): string | undefined => {
  const secret = (input as {secret?: string | null}).secret
  return typeof secret === 'string' ? secret : undefined
}
const BODIES = Object.fromEntries(API_VERSIONS.map((v) => [v, bodies(v)])) as Record<ApiVersion, ReturnType<typeof bodies>>
const bodiesOf = (ctx: Ctx) => BODIES[ctx.view.version ?? DEFAULT_PAYLOAD_VERSION]

const iso = (ctx: Ctx) => new Date(ctx.now).toISOString()

export const findEndpoint = finder('webhook_endpoints')

/** Applies `change` to the endpoint inside a write and answers with the endpoint. */
function updateEndpoint(ctx: Ctx, id: string, change: (w: WebhookEndpointRecord) => void) {
  findEndpoint(ctx, id)
  const endpoint = ctx.store.write(() => {
    const w = findEndpoint(ctx, id)
    change(w)
    w.modified_at = iso(ctx)
    return w
  })
  return ok(present.webhookEndpoint(ctx.view, endpoint))
}

export function register(r: Router): void {
  listRoute(r, 'webhooks:list_webhook_endpoints', (ctx: Ctx) => ctx.store.all('webhook_endpoints'), {
    present: present.webhookEndpoint,
    filters: {organization_id: organizationScope},
    sorts: {},
    defaultSort: ['-created_at'],
  })

  r.post('/webhooks/endpoints', 'organization', (ctx) => {
    const input = parse(bodiesOf(ctx).create, ctx.body)
    checkOrganization(ctx, input.organization_id)
    const given = givenSecret(input)
    const endpoint = ctx.store.write(() =>
      ctx.store.insert('webhook_endpoints', {
        id: uuid(),
        created_at: iso(ctx),
        modified_at: null,
        url: input.url,
        name: input.name ?? null,
        format: input.format,
        secret: given ?? newWebhookSecret(),
        events: [...new Set(input.events)],
        enabled: true,
        api_version: input.api_version as ApiVersion,
        // a merchant's secret keeps the original signing for good (polarsource/polar #14400)
        secret_generated_at: given === undefined ? iso(ctx) : null,
      }),
    )
    return ok(present.webhookEndpoint(ctx.view, endpoint), 201)
  })

  getRoute(r, 'webhooks:get_webhook_endpoint', findEndpoint, present.webhookEndpoint)

  r.patch('/webhooks/endpoints/:id', 'organization', (ctx) => {
    const id = pathId(ctx)
    const input = parse(bodiesOf(ctx).update, ctx.body)
    return updateEndpoint(ctx, id, (w) => {
      if (input.url) w.url = input.url
      if (input.format) w.format = input.format
      if (input.events) w.events = [...new Set(input.events)]
      if (input.name !== undefined) w.name = input.name
      if (input.api_version) w.api_version = input.api_version as ApiVersion
      const given = givenSecret(input)
      if (given !== undefined) Object.assign(w, {secret: given, secret_generated_at: null})
      if (input.enabled !== undefined && input.enabled !== null) w.enabled = input.enabled
    })
  })

  r.patch('/webhooks/endpoints/:id/secret', 'organization', (ctx) =>
    // a new secret of the service's, so the endpoint signs the Standard Webhooks way from now on
    updateEndpoint(ctx, pathId(ctx), (w) => {
      w.secret = newWebhookSecret()
      w.secret_generated_at = iso(ctx)
    }),
  )

  r.delete('/webhooks/endpoints/:id', 'organization', (ctx) => {
    const id = pathId(ctx)
    findEndpoint(ctx, id)
    ctx.store.write(() => ctx.store.remove('webhook_endpoints', findEndpoint(ctx, id).id))
    return noContent()
  })

  const eventOf = (d: WebhookDeliveryRecord, ctx: Ctx) => ctx.store.get('webhook_events', d.webhook_event_id)
  const deliveries = (ctx: Ctx) => {
    ctx.env.recordDeliveries()
    return ctx.store.all('webhook_deliveries')
  }
  listRoute(r, 'webhooks:list_webhook_deliveries', deliveries, {
    present: (_view, d, ctx) => presentDelivery(d, eventOf(d, ctx)),
    filters: {
      endpoint_id: byField('uuid', (d: WebhookDeliveryRecord) => d.webhook_endpoint_id),
      succeeded: byField('bool', (d: WebhookDeliveryRecord) => d.succeeded),
      event_type: {
        type: (ctx) => WEBHOOK_EVENTS_BY_VERSION[ctx.view.version ?? DEFAULT_PAYLOAD_VERSION],
        match: (d: WebhookDeliveryRecord, values, ctx) => values.includes(eventOf(d, ctx)?.type ?? ''),
      },
      http_code_class: byField(['2xx', '3xx', '4xx', '5xx'], (d: WebhookDeliveryRecord) => (d.http_code ? `${Math.floor(d.http_code / 100)}xx` : null)),
      start_timestamp: after((d: WebhookDeliveryRecord) => d.created_at),
      end_timestamp: before((d: WebhookDeliveryRecord) => d.created_at),
    },
    sorts: {},
    defaultSort: ['-created_at'],
  })

  r.post('/webhooks/events/:id/redeliver', 'organization', (ctx) => {
    ctx.env.redeliver(lookup(ctx, 'webhook_events', pathId(ctx)).id)
    return ok(null, 202)
  })
}

function presentDelivery(d: WebhookDeliveryRecord, e: WebhookEventRecord | undefined) {
  return {
    id: d.id,
    created_at: d.created_at,
    modified_at: d.modified_at,
    succeeded: d.succeeded,
    http_code: d.http_code,
    response: d.response,
    webhook_endpoint_id: d.webhook_endpoint_id,
    attempt: d.attempt,
    webhook_event: e
      ? {
          id: e.id,
          created_at: e.created_at,
          modified_at: e.modified_at,
          last_http_code: e.last_http_code,
          succeeded: e.succeeded,
          skipped: false,
          api_version: e.api_version ?? DEFAULT_PAYLOAD_VERSION,
          payload: e.payload,
          type: e.type,
          is_archived: false,
        }
      : null,
  }
}
