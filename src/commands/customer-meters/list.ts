import {Flags} from '@oclif/core'

import {BaseCommand, outputFlags, pageFlags} from '../../areas/command.js'
import {listCustomerMeters} from '../../client/resources/meters.js'

export default class CustomerMetersList extends BaseCommand {
  static override summary = "Customers' meters: units consumed, credited and the balance."
  static override description = 'One row per customer and meter the customer used or was credited on. Most recently changed first.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --external-customer usr_00001 --json',
    {
      description: 'Who is over their credits',
      command: '<%= config.bin %> <%= command.id %> --meter 5c8e1a2b-3d4f-4a6b-8c9d-0e1f2a3b4c5d --sort balance --all',
    },
  ]

  static override flags = {
    ...outputFlags,
    ...pageFlags,
    customer: Flags.string({description: 'Only this customer id (repeatable).', multiple: true}),
    'external-customer': Flags.string({description: 'Only the customer with this external id (repeatable).', multiple: true}),
    meter: Flags.string({description: 'Only this meter id (repeatable).', multiple: true}),
    sort: Flags.string({
      description:
        'Sort keys, comma-separated; a leading - sorts descending (created_at, modified_at, customer_name, meter_name, consumed_units, credited_units, balance).',
    }),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(CustomerMetersList)
    const client = await this.ctx.client()
    const items = listCustomerMeters(
      client,
      {customerId: flags.customer, externalCustomerId: flags['external-customer'], meterId: flags.meter, sorting: flags.sort?.split(',')},
      this.pageOptions(flags),
    )
    await this.writeList('customer-meters', items, flags)
  }
}
