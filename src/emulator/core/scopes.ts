// Which scopes a Core API route needs: those the service's published document names for its operation
// (the table scripts/operations.js generates from it, with the few routes it leaves out). Organization
// access tokens made by the emulator hold every scope; OAuth access tokens hold the scopes the user allowed.
import {findOperation, oauthScopes} from '../../client/scopes.js'

/**
 * The scopes any one of which lets `method` on `pathname`; undefined when the route needs none (the
 * Customer Portal, OAuth2's own routes, a route the table does not know).
 */
export function acceptedScopes(method: string, pathname: string): string[] | undefined {
  const found = findOperation(method, pathname)
  const scopes = found ? oauthScopes(found.spec) : []
  return scopes.length > 0 ? [...scopes] : undefined
}
