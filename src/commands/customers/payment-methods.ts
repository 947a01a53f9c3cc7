import {Args, Flags} from '@oclif/core'

import {listPaymentMethods} from '../../client/resources/exports.js'
import {BaseCommand, outputFlags, pageFlags} from '../../areas/command.js'

export default class CustomersPaymentMethods extends BaseCommand {
  static override summary = "List a customer's saved payment methods (cards), newest first."
  static override description = 'Give the customer id, or --external with your own id for the customer.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 5e9c0c57-3f4e-4a8a-9d61-2b0b1d2c3e4f',
    '<%= config.bin %> <%= command.id %> user_4821 --external -o json',
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Customer id (or external id with --external).', required: true})}
  static override flags = {...outputFlags, ...pageFlags, external: Flags.boolean({description: 'ID is your external id for the customer.'})}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(CustomersPaymentMethods)
    const client = await this.ctx.client()
    const customer = flags.external ? {externalId: args.id} : {id: args.id}
    await this.writeList('payment-methods', listPaymentMethods(client, customer, this.pageOptions(flags)), flags)
  }
}
