// The customer's e-mail change (server/polar/customer_email_update, customer portal endpoints): a request
// sends a link with a token to the new address; checking the token is free, verifying it sets the address
// and answers a new session token. The emulator sends no e-mail: the control API's
// `GET /_emulator/email-verifications` shows what it would have sent.
import {z} from '../../core/zod.js'

import {domainError, notPermitted, ruleValidation} from '../../core/errors.js'
import {noContent, ok, type Ctx, type Router} from '../../core/http.js'
import {token, TOKEN_PREFIXES, uuid} from '../../core/ids.js'
import {organization as organizationView} from '../../core/present.js'
import {routeOf} from '../../core/toolkit.js'
import {parse} from '../../core/validate.js'
import {emitCustomerChange, findCustomer} from '../customers/routes.js'
import {me} from './me.js'
import type {EmailVerificationRecord} from './model.js'

/** The service's EMAIL_VERIFICATION_TTL_SECONDS. */
const VERIFICATION_TTL_MS = 30 * 60_000

const invalid = () => domainError(401, 'InvalidCustomerEmailUpdate', 'This email update request is invalid or has expired.')

const valid = (ctx: Ctx, raw: string | null | undefined): EmailVerificationRecord | undefined =>
  ctx.store.all('email_verifications').find((v) => v.token === raw && Date.parse(v.expires_at) > ctx.now)

function requestUpdate(ctx: Ctx) {
  const {email} = parse(z.object({email: z.email()}), ctx.body)
  const customer = findCustomer(ctx, me(ctx))
  const settings = organizationView(ctx.store.data.organization).customer_portal_settings as {customer?: {allow_email_change?: boolean}}
  if (!settings.customer?.allow_email_change) throw notPermitted('Email changes are not enabled for this organization.')
  if (customer.type === 'team') throw ruleValidation(['body', 'email'], 'Only individual customers can change their email.', email)
  if (customer.email?.toLowerCase() === email.toLowerCase()) throw ruleValidation(['body', 'email'], 'New email is the same as your current email.', email)
  ctx.store.write(() => {
    // a new request replaces the customer's pending one
    for (const v of ctx.store.all('email_verifications').filter((v) => v.customer_id === customer.id)) ctx.store.remove('email_verifications', v.id)
    ctx.store.insert('email_verifications', {
      id: uuid(),
      created_at: new Date(ctx.now).toISOString(),
      customer_id: customer.id,
      email,
      token: token('polar_cev_'),
      expires_at: new Date(ctx.now + VERIFICATION_TTL_MS).toISOString(),
    })
  })
  return ok(null, 202)
}

function verifyUpdate(ctx: Ctx) {
  const input = parse(z.object({token: z.string()}), ctx.body)
  const record = valid(ctx, input.token)
  if (!record) throw invalid()
  const taken = ctx.store
    .all('customers')
    .some((c) => c.deleted_at === null && c.id !== record.customer_id && c.email?.toLowerCase() === record.email.toLowerCase())
  if (taken) {
    ctx.store.write(() => ctx.store.remove('email_verifications', record.id))
    throw ruleValidation(['body', 'token'], 'This email address is already in use.', record.email)
  }
  const {customer, session} = ctx.store.write(() => {
    const c = findCustomer(ctx, record.customer_id)
    c.email = record.email
    c.email_verified = true
    c.modified_at = new Date(ctx.now).toISOString()
    ctx.store.remove('email_verifications', record.id)
    const s = ctx.store.insert('customer_sessions', {
      id: uuid(),
      created_at: new Date(ctx.now).toISOString(),
      modified_at: null,
      token: token(TOKEN_PREFIXES.customer),
      expires_at: new Date(ctx.now + ctx.env.options.sessionTtlMs).toISOString(),
      return_url: null,
      customer_id: c.id,
    })
    return {customer: c, session: s}
  })
  emitCustomerChange(ctx, 'updated', customer)
  return ok({token: session.token})
}

export function registerEmailUpdate(r: Router): void {
  r.post(routeOf('customer_portal:customers:request_email_update').path, 'customer', requestUpdate)
  // No token: the verification token is the proof (of access to the new inbox).
  r.get(routeOf('customer_portal:customers:check_email_update').path, 'none', (ctx) => {
    if (!valid(ctx, ctx.query.get('token'))) throw invalid()
    return noContent()
  })
  r.post(routeOf('customer_portal:customers:verify_email_update').path, 'none', verifyUpdate)
}

/** The pending e-mail changes, with their tokens: what the verification e-mails would carry. */
export const pendingVerifications = (ctx: Ctx) =>
  ctx.store
    .all('email_verifications')
    .filter((v) => Date.parse(v.expires_at) > ctx.now)
    .map((v) => ({customer_id: v.customer_id, email: v.email, token: v.token, expires_at: v.expires_at}))
