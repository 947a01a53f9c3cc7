// What the client (client.ts) reads of an answer: a body as JSON or text, a redirect's target, the
// service's refusal of an API version, and the errors for a redirect it does not follow and for a version
// the service does not serve.
import {redact} from './redact.js'
import {ExitCode, TillError} from './till-error.js'

/**
 * The service refuses a version it does not serve (malformed, unknown or removed) before routing, on every
 * route: a bare 404 `{"detail":"Not Found"}` without the `Polar-Version` header every other answer echoes
 * (APIVersionMiddleware, server/polar/kit/versioning.py). A missing object or route keeps the echo.
 */
export function refusedVersion(answered: string | string[] | undefined, body: unknown): boolean {
  const bare = JSON.stringify(body) === '{"detail":"Not Found"}'
  return answered === undefined && bare
}

/** Who pins the version a client sends, and the command that moves it: told by the command line. */
export interface VersionPin {
  /** e.g. `profile "prod"`, `TILL_API_VERSION`. */
  who: string
  /** e.g. `till profiles set prod --api-version 2026-10`. */
  move: string
}

/** A version the service does not serve: one line naming the version, who pins it and how to move it. */
export class VersionNotServedError extends TillError {
  constructor(
    readonly version: string,
    pin: VersionPin | undefined,
  ) {
    const refused = `the service does not serve API version ${version}`
    const answer = 'it answers 404 to every request'
    const move = pin ? `move it with: ${pin.move}` : 'give the client another apiVersion'
    super(`${refused}${pin ? `, which ${pin.who} pins` : ''} (${answer}); ${move}`, ExitCode.usage)
    this.name = 'VersionNotServedError'
  }
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
