// What the client (client.ts) reads of an answer: a body as JSON or text, a redirect's target, the
// service's refusal of an API version, and the error for a redirect it does not follow.
import {redact} from './redact.js'
import {TillError} from './till-error.js'

/**
 * The service refuses an unknown or malformed version before routing: a bare 404 `{"detail":"Not Found"}`
 * whose `Polar-Version` header is its default instead of the version asked.
 */
export function refusedVersion(asked: string, answered: string | string[] | undefined, body: unknown): boolean {
  const echoed = Array.isArray(answered) ? answered[0] : answered
  return echoed !== undefined && echoed !== asked && (body as {detail?: unknown} | null)?.detail === 'Not Found'
}

export const REDIRECTS = new Set([301, 302, 303, 307, 308])
export const MAX_REDIRECTS = 5

export function redirectTarget(from: URL, location: string | string[] | undefined): URL | undefined {
  const value = Array.isArray(location) ? location[0] : location
  if (!value) return undefined
  try {
    const target = new URL(value, from)
    return target.protocol === 'http:' || target.protocol === 'https:' ? target : undefined
  } catch {
    return undefined
  }
}

/** A 3xx the client does not follow: a write (its body is never re-sent) or another origin. */
export class RedirectError extends TillError {
  constructor(
    readonly status: number,
    readonly method: string,
    readonly url: string,
    readonly location: string,
  ) {
    super(
      redact(`${method} ${url} answered ${status} redirecting to ${location || '(no Location)'}; not followed`),
      1,
      method === 'GET'
        ? 'the redirect leads to another origin, which never gets the token; fetch it yourself if you trust it'
        : 'the request was not sent again; call the Location yourself if it is the one you meant (e.g. with a trailing slash)',
    )
    this.name = 'RedirectError'
  }
}

export function parseBody(text: string, contentType: string | string[] | undefined): unknown {
  if (text === '') return null
  const type = Array.isArray(contentType) ? contentType[0] : contentType
  if (type?.includes('json') || /^[[{"]|^null$|^\d/.test(text.trim())) {
    try {
      return JSON.parse(text)
    } catch {
      return text
    }
  }
  return text
}
