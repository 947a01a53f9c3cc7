import {Args} from '@oclif/core'

import {getCustomer} from '../../client/resources/customers.js'
import {BaseCommand, bulkFlags, outputFlags} from '../../areas/command.js'
import {customerTarget, externalIdFlag} from '../../areas/customers/customers.js'

export default class CustomersGet extends BaseCommand {
  static override summary = 'Show one customer, by id or by your external id.'
  static override description =
    'Give - as ID (or as --external-id) to read several from stdin, one per line or JSON lines with an id. Without either, a terminal asks which customer.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 5e9c0c57-3f4e-4a8a-9d61-2b0b1d2c3e4f',
    {description: 'By the id your own system gave the customer', command: '<%= config.bin %> <%= command.id %> --external-id user_1234 --json'},
  ]

  static override args = {id: Args.string({description: 'Customer id, or - to read ids from stdin.', ignoreStdin: true})}
  static override flags = {...outputFlags, ...bulkFlags, 'external-id': externalIdFlag}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(CustomersGet)
    const target = await customerTarget(args.id, flags['external-id'], this.prompter, () => this.ctx.client(), 'Customer to show')
    const client = await this.ctx.client()
    await this.eachId(
      target.value,
      flags,
      (v) => getCustomer(client, target.ref(v)),
      (customer) => this.writeOne('customers', customer, flags),
    )
  }
}
