import {Args} from '@oclif/core'

import {listPaymentMethods} from '../../client/resources/exports.js'
import {BaseCommand, outputFlags, pageFlags} from '../../areas/command.js'
import {customerTarget, externalIdFlag} from '../../areas/customers/customers.js'

export default class CustomersPaymentMethods extends BaseCommand {
  static override summary = "List a customer's saved payment methods (cards), newest first."
  static override description = 'Give the customer id, or --external-id with your own id for the customer. Without either, a terminal asks which customer.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 5e9c0c57-3f4e-4a8a-9d61-2b0b1d2c3e4f',
    {description: 'By the id your own system gave the customer', command: '<%= config.bin %> <%= command.id %> --external-id user_4821 -o json'},
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Customer id.'})}
  static override flags = {...outputFlags, ...pageFlags, 'external-id': externalIdFlag}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(CustomersPaymentMethods)
    const target = await customerTarget(args.id, flags['external-id'], this.prompter, () => this.ctx.client(), 'Customer whose payment methods to list')
    const client = await this.ctx.client()
    const ref = target.ref(target.value)
    await this.writeList(
      'payment-methods',
      listPaymentMethods(client, 'id' in ref ? {id: ref.id} : {externalId: ref.externalId}, this.pageOptions(flags)),
      flags,
    )
  }
}
