import {Flags} from '@oclif/core'

import {listCustomers} from '../../client/resources/customers.js'
import {BaseCommand, outputFlags, pageFlags} from '../../areas/command.js'

export default class CustomersList extends BaseCommand {
  static override summary = 'List customers, newest first.'
  static override description =
    'Deleted customers are not listed. Filters combine; --query matches the name, email or external id. With --all every page is read within the rate budget and streamed in order.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'Customers with a subscription that is active now, as JSON lines', command: '<%= config.bin %> <%= command.id %> --active --all -o jsonl'},
    {description: 'Find a customer by part of the name or email', command: '<%= config.bin %> <%= command.id %> --query ada --columns id,email,external_id'},
  ]

  static override flags = {
    ...outputFlags,
    ...pageFlags,
    email: Flags.string({description: 'Only the customer with exactly this email.'}),
    query: Flags.string({char: 'q', description: 'Only customers whose name, email or external id contains this text.'}),
    active: Flags.boolean({description: 'Only customers with an active subscription (--no-active: only those without).', allowNo: true}),
    sort: Flags.string({description: 'Sort keys, comma-separated; a leading - sorts descending (created_at, email, name).'}),
    metadata: Flags.string({description: 'Only customers with this metadata, key=value (repeatable).', multiple: true}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(CustomersList)
    const client = await this.ctx.client()
    const items = listCustomers(
      client,
      {
        email: flags.email,
        query: flags.query,
        active: flags.active,
        sorting: flags.sort?.split(','),
        metadata: flags.metadata,
      },
      this.pageOptions(flags),
    )
    await this.writeList('customers', items, flags)
  }
}
