import {Flags} from '@oclif/core'

import {CHECKOUT_STATUSES, listCheckouts} from '../../client/resources/checkouts.js'
import {BaseCommand, outputFlags, pageFlags} from '../../areas/command.js'

export default class CheckoutsList extends BaseCommand {
  static override summary = 'List checkout sessions, newest first.'
  static override description =
    'Filters combine; repeat --status, --product or --customer for several values. A checkout is open for 24 hours, then expired unless it was paid (confirmed, then succeeded).'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> --status open',
    {description: 'Checkouts started by one email address', command: '<%= config.bin %> <%= command.id %> --query ada@example.com'},
    {
      description: 'Every succeeded checkout of a product, as JSON lines',
      command: '<%= config.bin %> <%= command.id %> --product 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21 --status succeeded --all -o jsonl',
    },
  ]

  static override flags = {
    ...outputFlags,
    ...pageFlags,
    status: Flags.option({options: CHECKOUT_STATUSES, description: 'Only checkouts in this status (repeatable).', multiple: true})(),
    product: Flags.string({description: 'Only checkouts of this product id (repeatable).', multiple: true}),
    customer: Flags.string({description: 'Only checkouts of this customer id (repeatable).', multiple: true}),
    'external-customer': Flags.string({description: 'Only checkouts of the customer with this external id (repeatable).', multiple: true}),
    query: Flags.string({char: 'q', description: 'Only checkouts whose customer email contains this text.'}),
    sort: Flags.string({description: 'Sort keys, comma-separated; a leading - sorts descending (created_at, expires_at, status).'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(CheckoutsList)
    const client = await this.ctx.client()
    const items = listCheckouts(
      client,
      {
        status: flags.status,
        productId: flags.product,
        customerId: flags.customer,
        externalCustomerId: flags['external-customer'],
        query: flags.query,
        sorting: flags.sort?.split(','),
      },
      this.pageOptions(flags),
    )
    await this.writeList('checkouts', items, flags)
  }
}
