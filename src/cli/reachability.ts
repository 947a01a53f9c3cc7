// Two small pieces of the command context (context.ts): whether anything answers at a URL, and the
// service's 422s for a customer session (server/polar/customer_session/service.py: no such customer, no
// such member, a team customer without a member) in one line naming the command's flags.
import {connect} from 'node:net'

import {ExitCode, TillError, usageError} from '../client/till-error.js'

/** True when something accepts TCP connections at the URL's host and port. */
export function answers(url: string, timeoutMs = 500): Promise<boolean> {
  const u = new URL(url)
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80))
  return new Promise((resolve) => {
    const socket = connect({host: u.hostname, port})
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(timeoutMs, () => done(false))
    socket.once('connect', () => done(true))
    socket.once('error', () => done(false))
  })
}

/** The flags a command names the customer of a session with. */
export interface SessionFlags {
  external: string
  id: string
  member: string
}

const PORTAL_FLAGS: SessionFlags = {external: '--as-customer', id: '--as-customer-id', member: '--as-member-external-id EXTERNAL_ID or --as-member ID'}

/**
 * The service's 422 for a customer session, as one line naming the flags: a customer that does not exist
 * is not found (exit 3), a team customer's session without a member a usage error. Undefined for others.
 */
export function sessionRefused(error: unknown, as: {externalId?: string; customerId?: string}, flags = PORTAL_FLAGS): TillError | undefined {
  const detail = (error as {status?: number; body?: {detail?: Array<{loc?: unknown[]; msg?: string}>}}).body?.detail
  if ((error as {status?: number}).status !== 422 || !Array.isArray(detail)) return undefined
  const customer = as.externalId ?? as.customerId
  const missing = detail.find((d) => ['customer_id', 'external_customer_id'].includes(String(d.loc?.at(-1))) && /does not exist/.test(d.msg ?? ''))
  if (missing) {
    const what = as.externalId ? `the external id ${as.externalId} (${flags.external})` : `the id ${as.customerId} (${flags.id})`
    return new TillError(
      `no customer of this organization has ${what}`,
      ExitCode.notFound,
      as.externalId ? 'the customers and their external ids: till customers list --columns id,external_id,email' : 'the customers: till customers list',
    )
  }
  const required = (d: {loc?: unknown[]; msg?: string}) => d.loc?.at(-1) === 'member_id' && /required/.test(d.msg ?? '')
  if (!detail.some(required)) return undefined
  return usageError(
    `${customer} is a team customer: its portal session acts as one of its members`,
    `add ${flags.member} (see: till customers members list ${as.externalId ? `--external-id ${as.externalId}` : as.customerId})`,
  )
}
