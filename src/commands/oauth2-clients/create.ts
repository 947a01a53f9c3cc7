import {createOAuth2Client} from '../../client/resources/oauth2.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'
import {configurationFlags, configurationFrom} from '../../areas/oauth2/clients.js'

export default class OAuth2ClientsCreate extends BaseCommand {
  static override summary = 'Register an OAuth2 client for an integration; prints its secret, once.'
  static override description =
    `A confidential client (a server) gets a client secret (polar_cs_...): store it now, till does not show it again (piped: the client id and the secret, tab-separated). A public client (--public: a CLI or an app on the user's machine) has no secret and signs users in with PKCE; its id can be given to till auth login --client-id.
The service asks for an https redirect URI (http only on localhost).`
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> --name "Acme sync" --redirect-uri https://acme.example/oauth/callback --scope "orders:read customers:read"',
    {
      description: 'A public client for a command-line tool',
      command: '<%= config.bin %> <%= command.id %> --name "Acme CLI" --public --redirect-uri http://127.0.0.1:3333/oauth/callback',
    },
  ]

  static override flags = {...outputFlags, ...configurationFlags}

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(OAuth2ClientsCreate)
    const body = configurationFrom(flags)
    const client = await this.ctx.client()
    const created = await createOAuth2Client(client, body)
    await this.writeCreated(created.client_secret ? 'oauth2-client-created' : 'oauth2-clients', created, flags, {key: 'client_id', secret: 'client_secret'})
    this.ctx.note(
      created.client_secret
        ? `Created OAuth2 client ${created.client_id}. Store its client secret now; it is not shown again.`
        : `Created public OAuth2 client ${created.client_id} (no secret; sign in with PKCE, e.g. till auth login --web --client-id ${created.client_id}).`,
    )
  }
}
