import {Args, Flags} from '@oclif/core'

import {deleteOAuth2Client} from '../../client/resources/oauth2.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'

export default class OAuth2ClientsDelete extends BaseCommand {
  static override summary = 'Delete an OAuth2 client: its tokens stop working at once.'
  static override description =
    'Every access and refresh token issued to the client is revoked with it, so every user signed in through it is signed out. Asks for confirmation on a terminal; without one, --yes is required.'
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %> polar_ci_...', '<%= config.bin %> <%= command.id %> polar_ci_... --yes']
  static override args = {'client-id': Args.string({description: 'The client id (polar_ci_...).', required: true})}
  static override flags = {...outputFlags, yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'})}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(OAuth2ClientsDelete)
    await this.confirmAction(`delete OAuth2 client ${args['client-id']} and revoke every token issued to it`, flags.yes)
    const client = await this.ctx.client()
    await deleteOAuth2Client(client, args['client-id'])
    if (flags.json || flags.output) await this.writeOne('deleted', {client_id: args['client-id'], deleted: true}, flags)
    else this.ctx.note(`Deleted OAuth2 client ${args['client-id']}; its tokens are revoked.`)
  }
}
