// OAuth2 routes: the authorize page (outside /v1), the token endpoints, and client registration.
import type {Router} from '../../core/http.js'
import {registerAuthorize} from './authorize.js'
import {registerClients} from './clients.js'
import {registerPage} from './page.js'
import {registerTokens} from './tokens.js'

export function register(r: Router): void {
  registerPage(r)
  registerAuthorize(r)
  registerTokens(r)
  registerClients(r)
}
