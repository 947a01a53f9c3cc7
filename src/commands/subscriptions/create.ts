import {Flags} from '@oclif/core'

import {createSubscription} from '../../client/resources/subscriptions.js'
import {usageError} from '../../client/till-error.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'
import {metadataFlag} from '../../areas/catalog/flags.js'
import {metadataFrom} from '../../cli/input/fields.js'

export default class SubscriptionsCreate extends BaseCommand {
  static override summary = 'Subscribe a customer to a free recurring product.'
  static override description =
    "The service creates subscriptions directly for free products only; a paid one needs a checkout (till checkouts create). The customer is given by id or by your external id; a customer who already has a subscription gets another one. The product's benefits are granted at once."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> --product 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21 --customer 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d',
    {
      description: 'By your own user id, with metadata',
      command: '<%= config.bin %> <%= command.id %> --product 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21 --external-customer usr_00001 --metadata source=import',
    },
  ]

  static override flags = {
    ...outputFlags,
    product: Flags.string({description: 'The free recurring product to subscribe to.', required: true}),
    customer: Flags.string({description: 'The customer id.', exactlyOne: ['customer', 'external-customer']}),
    'external-customer': Flags.string({description: 'The customer, by your external id.'}),
    ...metadataFlag('Metadata key=value on the subscription (repeatable).'),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(SubscriptionsCreate)
    if (flags.customer === '' || flags['external-customer'] === '') throw usageError('the customer id is empty', 'give --customer ID or --external-customer ID')
    const subscription = await createSubscription(await this.ctx.client(), {
      product_id: flags.product,
      ...(flags.customer ? {customer_id: flags.customer} : {external_customer_id: flags['external-customer']!}),
      metadata: metadataFrom(flags.metadata),
    })
    await this.writeCreated('subscriptions', subscription, flags)
  }
}
