import {Args} from '@oclif/core'

import {getCheckout} from '../../client/resources/checkouts.js'
import {BaseCommand, bulkFlags, outputFlags} from '../../areas/command.js'

export default class CheckoutsGet extends BaseCommand {
  static override summary = 'Show one checkout session: status, amounts, customer and URL.'
  static override description = 'Give - as ID to show every checkout id read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
    '<%= config.bin %> <%= command.id %> 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d --json | jq -r .status',
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Checkout id, or - to read ids from stdin.', required: true})}
  static override flags = {...outputFlags, ...bulkFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(CheckoutsGet)
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      (id) => getCheckout(client, id),
      (checkout) => this.writeOne('checkouts', checkout, flags),
    )
  }
}
