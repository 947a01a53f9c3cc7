// GET /v1/oauth2/authorize as the published document has it (server/polar/oauth2/endpoints/oauth2.py):
// what the service's dashboard reads to draw its consent screen, as JSON: the client's public face, the
// scopes asked for, who the token would be for (`sub_type`: the signed-in user, or an organization to
// pick among `organizations`). The same checks as the emulator's own page (page.ts): an unknown client
// or redirect URI is refused here (400, the OAuth error), anything else goes back to the client's
// redirect URI as `error=...`. The emulator's organization token stands in for the signed-in user.
import {ok, type Ctx, type Reply, type Router} from '../../core/http.js'
import {check} from './page.js'
import {oauthError, operator} from './tokens.js'

function authorize(ctx: Ctx): Reply {
  const checked = check(ctx, ctx.query, (error, description) => {
    throw oauthError(400, error, description)
  })
  if (!('client' in checked)) return checked
  const {client, scopes} = checked
  const org = ctx.store.data.organization
  const subType = (ctx.query.get('sub_type') ?? client.default_sub_type) === 'organization' ? 'organization' : 'user'
  const user = operator(org)
  const organization = {id: org.id, slug: org.slug, avatar_url: org.avatar_url}
  return ok({
    client: {
      created_at: client.created_at,
      modified_at: client.modified_at,
      client_id: client.id,
      client_name: client.client_name,
      client_uri: client.client_uri,
      logo_uri: client.logo_uri,
      tos_uri: client.tos_uri,
      policy_uri: client.policy_uri,
    },
    sub_type: subType,
    // the user is known; an organization is chosen on the consent screen among those the user belongs to
    sub: subType === 'user' ? {id: user.id, email: user.email, avatar_url: null} : null,
    scopes,
    organizations: [organization],
    requires_single_organization: false,
  })
}

export function registerAuthorize(r: Router): void {
  r.get('/oauth2/authorize', 'organization', authorize)
}
