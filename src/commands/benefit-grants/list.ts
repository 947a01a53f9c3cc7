import {Flags} from '@oclif/core'

import {listAllBenefitGrants} from '../../client/resources/benefits.js'
import {BaseCommand, outputFlags, pageFlags} from '../../areas/command.js'

export default class BenefitGrantsList extends BaseCommand {
  static override summary = 'List the grants of every benefit, newest first: who has (or had) which benefit.'
  static override description =
    'The grants of one benefit: till benefits grants ID. Filters combine; repeat --customer or --external-customer for several values.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> --granted',
    {
      description: 'Everything one customer was granted, as JSON lines',
      command: '<%= config.bin %> <%= command.id %> --customer 5e9c0c57-3f4e-4a8a-9d61-2b0b1d2c3e4f --all -o jsonl',
    },
  ]

  static override flags = {
    ...outputFlags,
    ...pageFlags,
    granted: Flags.boolean({description: 'Only grants in effect (--no-granted: only revoked or pending ones).', allowNo: true}),
    customer: Flags.string({description: 'Only grants of this customer id (repeatable).', multiple: true}),
    'external-customer': Flags.string({description: 'Only grants of the customer with this external id (repeatable).', multiple: true}),
    sort: Flags.string({description: 'Sort keys, comma-separated; a leading - sorts descending (created_at, granted_at, revoked_at).'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(BenefitGrantsList)
    const client = await this.ctx.client()
    const items = listAllBenefitGrants(
      client,
      {
        granted: flags.granted,
        customerId: flags.customer,
        externalCustomerId: flags['external-customer'],
        sorting: flags.sort?.split(','),
      },
      this.pageOptions(flags),
    )
    await this.writeList('benefit-grants', items, flags)
  }
}
