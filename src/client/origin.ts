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
