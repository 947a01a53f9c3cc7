import {Args} from '@oclif/core'

import {BaseCommand, outputFlags} from '../../areas/command.js'
import {getCustomerMeter} from '../../client/resources/meters.js'

export default class CustomerMetersGet extends BaseCommand {
  static override summary = "Show one customer's meter."
  static override description = 'Give - as ID to show every customer meter id read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 8a1b2c3d-4e5f-4a6b-9c8d-7e6f5a4b3c2d',
    '<%= config.bin %> <%= command.id %> 8a1b2c3d-4e5f-4a6b-9c8d-7e6f5a4b3c2d --json | jq .balance',
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Customer meter id, or - to read ids from stdin.', required: true})}
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(CustomerMetersGet)
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      (id) => getCustomerMeter(client, id),
      (m) => this.writeOne('customer-meters', m, flags),
    )
  }
}
