// Which scopes a Core API route needs (api-facts §2, §3): `<resource>:read` or `:write` for reading,
// `:write` for changing; resource names with underscores. Organization access tokens made by the
// emulator hold every scope; OAuth access tokens hold the scopes the user allowed.

/** Resources whose only scope is one-sided. */
const ONLY: Record<string, string[]> = {
  customer_sessions: ['customer_sessions:write'],
  metrics: ['metrics:read', 'metrics:write'],
}

/** Path segments named differently from their scope. */
const RENAMED: Record<string, string> = {cli: 'webhooks'}

/** The scopes any one of which lets `method` on `/v1/<pathname>`; undefined for routes outside the Core API. */
export function acceptedScopes(method: string, pathname: string): string[] | undefined {
  const match = /^\/v1\/([a-z0-9-]+)/.exec(pathname)
  if (!match || match[1] === 'customer-portal' || match[1] === 'oauth2') return undefined
  const resource = RENAMED[match[1]!] ?? match[1]!.replace(/-/g, '_')
  if (ONLY[resource]) return ONLY[resource]
  return method === 'GET' || method === 'HEAD' ? [`${resource}:read`, `${resource}:write`] : [`${resource}:write`]
}
