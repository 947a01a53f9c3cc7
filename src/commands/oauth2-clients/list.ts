import {listOAuth2Clients} from '../../client/resources/oauth2.js'
import {BaseCommand, outputFlags, pageFlags} from '../../areas/command.js'
import {withoutSecrets} from '../../areas/oauth2/clients.js'

export default class OAuth2ClientsList extends BaseCommand {
  static override summary = "List the OAuth2 clients registered for the signed-in user's integrations, newest first."
  static override description = 'Client secrets are never listed: a secret is shown once, by oauth2-clients create.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'The ids of the public clients', command: "<%= config.bin %> <%= command.id %> --all -o jsonl | jq -r 'select(.token_endpoint_auth_method == \"none\") | .client_id'"},
  ]

  static override flags = {...outputFlags, ...pageFlags}

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(OAuth2ClientsList)
    const client = await this.ctx.client()
    const clean = async function* (items: AsyncIterable<Parameters<typeof withoutSecrets>[0]>) {
      for await (const item of items) yield withoutSecrets(item)
    }
    await this.writeList('oauth2-clients', clean(listOAuth2Clients(client, this.pageOptions(flags))), flags)
  }
}
