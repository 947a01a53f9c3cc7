// OAuth2 clients: the public client built into the emulator, lookups, redirect URI matching, and the
// registration endpoints (RFC 7591/7592 as the service runs them: `POST /v1/oauth2/register`,
// `GET|PUT|DELETE /v1/oauth2/register/{client_id}`, and the list at `GET /v1/oauth2/`).
import {z} from '../../core/zod.js'

import {EMULATOR_CLIENT_ID, TILL_SCOPES} from '../../../client/oauth.js'
import {isLoopbackHost} from '../../../client/origin.js'
import {lookup} from '../../core/toolkit.js'
import {noContent, ok, type Ctx, type Router} from '../../core/http.js'
import {token} from '../../core/ids.js'
import {listRows} from '../../core/list.js'
import {parse} from '../../core/validate.js'
import type {OAuth2ClientRecord} from './model.js'

/** Every scope the service supports (the default `scope` of a new client). */
export const SCOPES_SUPPORTED = [
  'openid',
  'profile',
  'email',
  'user:read',
  'user:write',
  'organizations:read',
  'organizations:write',
  'custom_fields:read',
  'custom_fields:write',
  'discounts:read',
  'discounts:write',
  'checkout_links:read',
  'checkout_links:write',
  'checkouts:read',
  'checkouts:write',
  'transactions:read',
  'transactions:write',
  'payouts:read',
  'payouts:write',
  'products:read',
  'products:write',
  'benefits:read',
  'benefits:write',
  'events:read',
  'events:write',
  'meters:read',
  'meters:write',
  'files:read',
  'files:write',
  'subscriptions:read',
  'subscriptions:write',
  'customers:read',
  'customers:write',
  'members:read',
  'members:write',
  'wallets:read',
  'wallets:write',
  'disputes:read',
  'disputes:write',
  'customer_meters:read',
  'customer_sessions:write',
  'member_sessions:write',
  'customer_seats:read',
  'customer_seats:write',
  'orders:read',
  'orders:write',
  'refunds:read',
  'refunds:write',
  'payments:read',
  'metrics:read',
  'metrics:write',
  'webhooks:read',
  'webhooks:write',
  'license_keys:read',
  'license_keys:write',
  'customer_portal:read',
  'customer_portal:write',
  'notifications:read',
  'notifications:write',
  'notification_recipients:read',
  'notification_recipients:write',
]

/** The emulator's own public client (like the service's CLI client): any loopback port, every scope till asks for. */
export function builtInClient(created: string): OAuth2ClientRecord {
  return {
    id: EMULATOR_CLIENT_ID,
    created_at: created,
    modified_at: null,
    client_secret: '',
    client_id_issued_at: Math.floor(Date.parse(created) / 1000),
    client_secret_expires_at: 0,
    redirect_uris: ['http://127.0.0.1/oauth/callback', 'http://localhost/oauth/callback'],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    scope: [...new Set([...TILL_SCOPES, ...SCOPES_SUPPORTED])].join(' '),
    client_name: 'till (emulator)',
    client_uri: null,
    logo_uri: null,
    tos_uri: null,
    policy_uri: null,
    default_sub_type: 'user',
  }
}

/** A live client by id: a registered one, or the built-in one. */
export function findClient(ctx: Ctx, clientId: string): OAuth2ClientRecord | undefined {
  if (clientId === EMULATOR_CLIENT_ID) return builtInClient(ctx.store.data.organization.created_at)
  return ctx.store.get('oauth2_clients', clientId)
}

/**
 * Whether `uri` is one of the client's redirect URIs: exactly, or for a loopback `http` URI with any
 * port (a native app listens on whatever port is free, RFC 8252 §7.3).
 */
export function redirectAllowed(client: OAuth2ClientRecord, uri: string): boolean {
  if (client.redirect_uris.includes(uri)) return true
  let asked: URL
  try {
    asked = new URL(uri)
  } catch {
    return false
  }
  if (asked.protocol !== 'http:' || !isLoopbackHost(asked.hostname)) return false
  return client.redirect_uris.some((registered) => {
    const r = new URL(registered)
    return r.protocol === 'http:' && r.hostname === asked.hostname && r.pathname === asked.pathname && r.search === asked.search
  })
}

/** https, or http on localhost or a private address (the service's rule for redirect URIs). */
const redirectUri = z.string().refine((value) => {
  try {
    const url = new URL(value)
    if (url.protocol === 'https:') return true
    return url.protocol === 'http:' && (isLoopbackHost(url.hostname) || /^(10|192\.168|172\.(1[6-9]|2\d|3[01]))\./.test(url.hostname))
  } catch {
    return false
  }
}, 'An HTTPS URL is required.')

const httpUrl = z.string().refine((v) => /^https?:\/\/\S+$/.test(v), 'Input should be a valid URL')

const configuration = z.object({
  redirect_uris: z.array(redirectUri),
  token_endpoint_auth_method: z.enum(['client_secret_basic', 'client_secret_post', 'none']).default('client_secret_post'),
  grant_types: z.array(z.enum(['authorization_code', 'refresh_token'])).default(['authorization_code', 'refresh_token']),
  response_types: z.array(z.literal('code')).default(['code']),
  scope: z
    .string()
    .default(SCOPES_SUPPORTED.join(' '))
    .refine(
      (s) =>
        s
          .split(/\s+/)
          .filter(Boolean)
          .every((x) => SCOPES_SUPPORTED.includes(x)),
      'Invalid scope.',
    ),
  client_name: z.string(),
  client_uri: z.string().nullish(),
  logo_uri: httpUrl.nullish(),
  tos_uri: httpUrl.nullish(),
  policy_uri: httpUrl.nullish(),
  default_sub_type: z.enum(['user', 'organization']).default('user'),
})

/** The client as the registration endpoints answer it; a public client's answer has no secret. */
export function presentClient(ctx: Ctx, c: OAuth2ClientRecord) {
  const {id, client_secret, client_secret_expires_at, ...rest} = c
  return {
    ...rest,
    client_id: id,
    ...(c.token_endpoint_auth_method === 'none' ? {} : {client_secret, client_secret_expires_at}),
    registration_client_uri: `${ctx.env.origin}/v1/oauth2/register/${id}`,
  }
}

/** A client by its id (not a UUID: `polar_ci_...`), or 404. */
const owned = (ctx: Ctx): OAuth2ClientRecord => lookup(ctx, 'oauth2_clients', ctx.params.client_id ?? '', {param: false})

export function registerClients(r: Router): void {
  // The service publishes no document of this operation (its query parameters are not known): the list is the core's.
  r.get('/oauth2/', 'organization', (ctx) =>
    ok(
      listRows(ctx.store.all('oauth2_clients'), ctx.query, {filters: {}, sorts: {created_at: (c) => c.created_at}, defaultSort: ['-created_at']}, (c) =>
        presentClient(ctx, c),
      ),
    ),
  )

  r.post('/oauth2/register', 'organization', (ctx) => {
    const input = parse(configuration, ctx.body)
    const now = new Date(ctx.now).toISOString()
    const client = ctx.store.write(() =>
      ctx.store.insert('oauth2_clients', {
        ...input,
        id: token('polar_ci_'),
        created_at: now,
        modified_at: null,
        client_secret: token('polar_cs_'),
        client_id_issued_at: Math.floor(ctx.now / 1000),
        client_secret_expires_at: 0,
        client_uri: input.client_uri ?? null,
        logo_uri: input.logo_uri ?? null,
        tos_uri: input.tos_uri ?? null,
        policy_uri: input.policy_uri ?? null,
      }),
    )
    return ok({...presentClient(ctx, client), registration_access_token: token('polar_crt_')})
  })

  r.get('/oauth2/register/:client_id', 'organization', (ctx) => ok(presentClient(ctx, owned(ctx))))

  r.add('PUT', '/oauth2/register/:client_id', 'organization', (ctx) => {
    owned(ctx)
    const input = parse(configuration.extend({client_id: z.string()}), ctx.body)
    const {client_id: _same, ...metadata} = input
    const client = ctx.store.write(() => {
      const c = owned(ctx)
      Object.assign(c, metadata, {modified_at: new Date(ctx.now).toISOString()})
      return c
    })
    return ok(presentClient(ctx, client))
  })

  r.delete('/oauth2/register/:client_id', 'organization', (ctx) => {
    owned(ctx)
    ctx.store.write(() => {
      const id = owned(ctx).id
      ctx.store.remove('oauth2_clients', id)
      // Its tokens die with it.
      const now = new Date(ctx.now).toISOString()
      for (const t of ctx.store.all('oauth2_tokens')) {
        if (t.client_id !== id) continue
        t.access_revoked_at ??= now
        t.refresh_revoked_at ??= now
      }
    })
    return noContent()
  })
}
