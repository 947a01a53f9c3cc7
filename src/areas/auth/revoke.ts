// Signing out of a browser sign-in: its refresh token is revoked at the service, which revokes its
// access token with it (RFC 7009; the pair is one grant).
import {ApiError} from '../../client/errors.js'
import type {OAuthTokens} from '../../client/oauth.js'
import {revokeToken} from '../../client/resources/oauth2.js'
import type {Context} from '../../cli/context.js'

/** True when the service revoked the tokens; a failure is a warning (the tokens are forgotten anyway). */
export async function revokeSignIn(ctx: Context, tokens: OAuthTokens): Promise<boolean> {
  try {
    const baseUrl = await ctx.apiBaseUrl()
    const anonymous = await ctx.newClient(baseUrl, undefined, `${ctx.profile.name}.oauth`)
    const token = tokens.refresh_token ?? tokens.access_token
    await revokeToken(anonymous, {token, token_type_hint: tokens.refresh_token ? 'refresh_token' : 'access_token', client_id: tokens.client_id})
    return true
  } catch (error) {
    const why = error instanceof ApiError ? `the service answered ${error.status}: ${error.message}` : (error as Error).message
    ctx.note(
      `Warning: could not revoke the sign-in at the service (${why}); its access token stays valid until ${tokens.expires_at}, its refresh token until revoked in the dashboard.`,
    )
    return false
  }
}
