import {Args} from '@oclif/core'

import {getOAuth2Client} from '../../client/resources/oauth2.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'
import {withoutSecrets} from '../../areas/oauth2/clients.js'

export default class OAuth2ClientsGet extends BaseCommand {
  static override summary = 'Show one OAuth2 client: name, redirect URIs, scopes, how it authenticates.'
  static override description = 'Its secret is not shown (only oauth2-clients create shows it, once).'
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %> polar_ci_...', '<%= config.bin %> <%= command.id %> polar_ci_... --json']
  static override args = {'client-id': Args.string({description: 'The client id (polar_ci_...).', required: true})}
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(OAuth2ClientsGet)
    const client = await this.ctx.client()
    await this.writeOne('oauth2-clients', withoutSecrets(await getOAuth2Client(client, args['client-id'])), flags)
  }
}
