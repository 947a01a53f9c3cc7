import {Args} from '@oclif/core'

import {getOAuth2Client, updateOAuth2Client} from '../../client/resources/oauth2.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'
import {configurationFlags, configurationFrom, withoutSecrets} from '../../areas/oauth2/clients.js'
import {usageError} from '../../client/till-error.js'

export default class OAuth2ClientsUpdate extends BaseCommand {
  static override summary = "Change an OAuth2 client's name, redirect URIs, scopes or links."
  static override description =
    'Fields not given keep their values (till sends the whole configuration back, as the service asks). --redirect-uri and --scope replace their lists.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> polar_ci_... --name "Acme sync (v2)"',
    '<%= config.bin %> <%= command.id %> polar_ci_... --redirect-uri https://acme.example/oauth/callback --redirect-uri https://staging.acme.example/oauth/callback',
  ]

  static override args = {'client-id': Args.string({description: 'The client id (polar_ci_...).', required: true})}
  static override flags = {...outputFlags, ...configurationFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(OAuth2ClientsUpdate)
    const changes = Object.keys(configurationFlags).filter(
      (k) => (flags as Record<string, unknown>)[k] !== undefined && (flags as Record<string, unknown>)[k] !== false,
    )
    if (changes.length === 0)
      throw usageError(
        'nothing to change',
        `pass at least one of ${Object.keys(configurationFlags)
          .map((k) => `--${k}`)
          .join(', ')}`,
      )
    const client = await this.ctx.client()
    const current = await getOAuth2Client(client, args['client-id'])
    const updated = await updateOAuth2Client(client, args['client-id'], configurationFrom(flags, current))
    await this.writeChanged('oauth2-clients', withoutSecrets(updated), flags)
  }
}
