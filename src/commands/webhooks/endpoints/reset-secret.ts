import {Args, Flags} from '@oclif/core'

import {resetEndpointSecret} from '../../../client/resources/webhooks.js'
import {BaseCommand, outputFlags} from '../../../areas/command.js'
import {receiverHint} from '../../../areas/webhooks/signing.js'

export default class WebhooksEndpointsResetSecret extends BaseCommand {
  static override summary = "Replace a webhook endpoint's signing secret; the new secret is shown once."
  static override description =
    'Deliveries are signed with the new secret at once: the old one stops verifying, so update your receiver right after. A new secret also moves an endpoint that signed the legacy way to the standard way (Standard Webhooks: a stock library verifies with the secret as it is). The new secret goes to stdout (the whole endpoint with --json); it is not shown again. Asks for confirmation on a terminal; without one, --yes is required.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
    {
      description: 'Straight into a secrets file, without a question',
      command: '<%= config.bin %> <%= command.id %> 1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d --yes > webhook-secret.txt',
    },
  ]

  static override args = {id: Args.string({description: 'Webhook endpoint id.', required: true, ignoreStdin: true})}
  static override flags = {...outputFlags, yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'})}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(WebhooksEndpointsResetSecret)
    await this.confirmAction(`replace the signing secret of webhook endpoint ${args.id} (the current one stops working at once)`, flags.yes)
    const endpoint = await resetEndpointSecret(await this.ctx.client(), args.id)
    await this.writeCreated('webhook-endpoints', endpoint, flags, {key: 'secret', secret: 'secret', keyOnTerminal: true})
    this.ctx.note(`New signing secret of webhook endpoint ${endpoint.id}: store it now, it is not shown again.`)
    this.ctx.note(receiverHint(endpoint))
  }
}
