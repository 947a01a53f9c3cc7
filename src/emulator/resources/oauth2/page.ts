// The authorize page: what the service's dashboard shows at `/oauth2/authorize` (`oauth2:authorize`), served
// here on the emulator's own host. It names the client and the organization, lists the scopes asked
// for, and has Allow and Deny buttons; the answer goes back to the client's redirect URI (RFC 6749 §4.1.2).
import type {Ctx, Reply, Router} from '../../core/http.js'
import {token, uuid} from '../../core/ids.js'
import {findClient, redirectAllowed} from './clients.js'
import {formOf, operator} from './tokens.js'
import type {OAuth2ClientRecord} from './model.js'

/** How long an authorization code may wait to be exchanged. */
const CODE_TTL_MS = 10 * 60 * 1000

const PARAMS = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'sub_type'] as const

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

function page(status: number, title: string, body: string): Reply {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1b1b1f}
ul{line-height:1.6}button{font-size:1rem;padding:.5rem 1.5rem;margin-right:.75rem;border-radius:.4rem;border:1px solid #888;cursor:pointer}
button[value=allow]{background:#0062ff;color:#fff;border-color:#0062ff}code{background:#f2f2f5;padding:0 .25rem}</style></head>
<body>${body}</body></html>`
  return {status, raw: {contentType: 'text/html; charset=utf-8', data: html}}
}

const errorPage = (detail: string) => page(400, 'Authorization error', `<h1>Authorization error</h1><p id="error">${escapeHtml(detail)}</p>`)

function redirect(to: string, params: Record<string, string | undefined>): Reply {
  const url = new URL(to)
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v)
  return {status: 302, headers: {location: url.toString()}, raw: {contentType: 'text/plain; charset=utf-8', data: ''}}
}

export interface Checked {
  client: OAuth2ClientRecord
  redirectUri: string
  scopes: string[]
  params: URLSearchParams
}

/**
 * Checks an authorization request. A bad client or redirect URI is shown on the page (never redirected
 * to); anything else wrong goes back to the client as `error=...` on its redirect URI.
 */
export function check(
  ctx: Ctx,
  params: URLSearchParams,
  refuse: (error: string, description: string) => Reply = (e, d) => errorPage(`${e}: ${d}`),
): Checked | Reply {
  const clientId = params.get('client_id')
  const client = clientId ? findClient(ctx, clientId) : undefined
  if (!client) return refuse('invalid_client', 'the client_id is unknown.')
  const redirectUri = params.get('redirect_uri') ?? client.redirect_uris[0] ?? ''
  if (!redirectAllowed(client, redirectUri)) return refuse('invalid_request', 'the redirect_uri is not registered for this client.')
  const state = params.get('state') ?? undefined
  const fail = (error: string, description: string) => redirect(redirectUri, {error, error_description: description, state, iss: ctx.env.origin})
  if (params.get('response_type') !== 'code') return fail('unsupported_response_type', 'response_type must be code')
  const scopes = (params.get('scope') ?? client.scope).split(/\s+/).filter(Boolean)
  const allowed = client.scope.split(' ')
  if (scopes.length === 0 || scopes.some((s) => !allowed.includes(s))) return fail('invalid_scope', 'The requested scope is invalid, unknown, or malformed.')
  const challenge = params.get('code_challenge')
  const method = params.get('code_challenge_method')
  if (!challenge && client.token_endpoint_auth_method === 'none') return fail('invalid_request', 'Missing "code_challenge"')
  if (challenge && (method ?? 'plain') !== 'S256') return fail('invalid_request', 'Unsupported "code_challenge_method"')
  return {client, redirectUri, scopes, params}
}

function authorizePage(ctx: Ctx): Reply {
  const checked = check(ctx, ctx.query)
  if (!('client' in checked)) return checked
  const org = ctx.store.data.organization
  const user = operator(org)
  const hidden = PARAMS.map((k) => checked.params.get(k))
    .map((v, i) => (v === null ? '' : `<input type="hidden" name="${PARAMS[i]}" value="${escapeHtml(v)}">`))
    .join('\n')
  return page(
    200,
    `Authorize ${checked.client.client_name}`,
    `<h1>Authorize <span id="client">${escapeHtml(checked.client.client_name)}</span></h1>
<p>Signed in as ${escapeHtml(user.email)}. <strong>${escapeHtml(checked.client.client_name)}</strong> asks to access
<strong id="organization">${escapeHtml(org.name)}</strong> (${ctx.env.name === 'sandbox' ? 'sandbox' : 'production'}) with these permissions:</p>
<ul id="scopes">${checked.scopes.map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join('')}</ul>
<p>It will be sent back to <code>${escapeHtml(checked.redirectUri)}</code>.</p>
<form method="post" action="/oauth2/authorize">
${hidden}
<button type="submit" name="action" value="allow">Allow</button>
<button type="submit" name="action" value="deny">Deny</button>
</form>`,
  )
}

function consent(ctx: Ctx): Reply {
  const form = formOf(ctx)
  const checked = check(ctx, form)
  if (!('client' in checked)) return checked
  const state = form.get('state') ?? undefined
  if (form.get('action') !== 'allow') {
    return redirect(checked.redirectUri, {
      error: 'access_denied',
      error_description: 'The resource owner or authorization server denied the request',
      state,
      iss: ctx.env.origin,
    })
  }
  const subType = form.get('sub_type') === 'organization' ? 'organization' : 'user'
  const code = ctx.store.write(() =>
    ctx.store.insert('oauth2_codes', {
      id: uuid(),
      code: token('polar_ac_'),
      client_id: checked.client.id,
      redirect_uri: form.get('redirect_uri') ?? checked.redirectUri,
      scope: checked.scopes.join(' '),
      code_challenge: form.get('code_challenge'),
      code_challenge_method: form.get('code_challenge') ? 'S256' : null,
      sub_type: subType,
      sub: subType === 'user' ? operator(ctx.store.data.organization).id : ctx.store.data.organization.id,
      created_at: new Date(ctx.now).toISOString(),
      expires_at: new Date(ctx.now + CODE_TTL_MS).toISOString(),
      used: false,
    }),
  )
  return redirect(checked.redirectUri, {code: code.code, state, iss: ctx.env.origin})
}

export function registerPage(r: Router): void {
  r.addAbsolute('GET', '/oauth2/authorize', 'none', authorizePage)
  r.addAbsolute('POST', '/oauth2/authorize', 'none', consent)
}
