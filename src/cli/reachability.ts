// Two small pieces of the command context (context.ts): whether anything answers at a URL, and the
// service's 422 for a team customer's portal session without a member, in one line naming the flags.
import {connect} from 'node:net'

import {type TillError, usageError} from '../client/till-error.js'

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

/** The service's 422 for a team customer's session without a member, as one line naming the flags. */
export function memberNeeded(error: unknown, as: {externalId?: string; customerId?: string}): TillError | undefined {
  const detail = (error as {status?: number; body?: {detail?: Array<{loc?: unknown[]; msg?: string}>}}).body?.detail
  const required = (d: {loc?: unknown[]; msg?: string}) => d.loc?.at(-1) === 'member_id' && /required/.test(d.msg ?? '')
  if ((error as {status?: number}).status !== 422 || !Array.isArray(detail) || !detail.some(required)) return undefined
  const customer = as.externalId ?? as.customerId
  return usageError(
    `${customer} is a team customer: its portal session acts as one of its members`,
    `add --as-member-external-id EXTERNAL_ID or --as-member ID (see: till customers members list ${as.externalId ? `--external-id ${as.externalId}` : as.customerId})`,
  )
}
