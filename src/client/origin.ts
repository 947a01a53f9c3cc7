// Where credentials may go: the one place deciding whether a URL gets the profile's token (organization,
// customer or OAuth). Only the API's own origin (scheme, host and port) does; any other URL, given by the
// user, handed out by the API or reached by a redirect, is fetched without them.
import {usageError} from './till-error.js'

/** `scheme://host:port` of a URL (ports made explicit by the URL parser's defaults). */
export function originOf(url: string | URL): string {
  return (typeof url === 'string' ? new URL(url) : url).origin
}

/** Whether `url` is on the API's origin, the only place credentials are sent. */
export function mayCarryCredentials(url: string | URL, apiBaseUrl: string): boolean {
  try {
    return originOf(url) === originOf(apiBaseUrl)
  } catch {
    return false
  }
}

/** A scheme at the start of a text (RFC 3986: a letter, then letters, digits, `+`, `-` or `.`, then `:`). */
const SCHEME = /^[a-z][a-z0-9+.-]*:/i

/**
 * The one rule for what the client and `till api` take as an absolute URL rather than a path under the base
 * URL: a text that starts with a scheme, in any case (`HTTP://` as `http://`). Only http and https are taken,
 * and only written whole, `scheme://host`: the URL parser reads `http:/x` and `http:\\x` as `http://x/`, a
 * host that was never written, so they are refused, as is any other scheme. Undefined for a path.
 */
export function absoluteUrl(text: string): URL | undefined {
  const scheme = SCHEME.exec(text)?.[0]
  if (scheme === undefined) return undefined
  const shown = text.length > 100 ? `${text.slice(0, 100)}…` : text
  const hint = 'give a path such as /products/, or a whole URL such as https://api.polar.sh/v1/products/'
  if (!/^https?:$/i.test(scheme)) throw usageError(`"${shown}" is not an http(s) URL`, hint)
  if (!/^https?:\/\/[^/\\?#]/i.test(text)) {
    throw usageError(`"${shown}" is a malformed URL: ${scheme} must be followed by //host`, hint)
  }
  try {
    return new URL(text)
  } catch {
    throw usageError(`"${shown}" is not a URL`, hint)
  }
}

/** Loopback hosts: 127.0.0.0/8, localhost and ::1 (the emulator's). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host)
}

/**
 * Refuses a base URL that would send a token across the network in clear text: plain `http://` on a host
 * that is not loopback. `what` names where the URL came from (a profile, TILL_API_URL, --url).
 */
export function assertSafeBaseUrl(baseUrl: string, what: string): void {
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    throw usageError(`${what} is not a URL: "${baseUrl}"`)
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw usageError(
      `${what} uses plain http:// on ${url.host}, which would send the token across the network unencrypted`,
      `use https://${url.host}${url.pathname === '/' ? '' : url.pathname} (plain http is allowed only on loopback, for the emulator)`,
    )
  }
}
