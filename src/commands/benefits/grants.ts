import {Args, Flags} from '@oclif/core'

import {listBenefitGrants} from '../../client/resources/benefits.js'
import {BaseCommand, bulkFlags, outputFlags, pageFlags} from '../../areas/command.js'
import {collect} from '../../areas/catalog/input.js'

export default class BenefitsGrants extends BaseCommand {
  static override summary = "List a benefit's grants: which customers have (or had) it."
  static override description =
    'A grant is created when a customer buys a product with the benefit, and revoked when the subscription ends or the order is refunded with --revoke-benefits.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0b6d9f2e-8c1a-4d3b-9e7f-5a2c4b6d8e01 --granted',
    {
      description: 'Revoked grants, as JSON lines',
      command: '<%= config.bin %> <%= command.id %> 0b6d9f2e-8c1a-4d3b-9e7f-5a2c4b6d8e01 --no-granted --all -o jsonl',
    },
    {
      description: 'One customer',
      command: '<%= config.bin %> <%= command.id %> 0b6d9f2e-8c1a-4d3b-9e7f-5a2c4b6d8e01 --customer 5e9c0c57-3f4e-4a8a-9d61-2b0b1d2c3e4f',
    },
  ]

  static override args = {
    id: Args.string({ignoreStdin: true, description: 'Benefit id, or - to read ids from stdin (one result per benefit, holding its grants).', required: true}),
  }
  static override flags = {
    ...outputFlags,
    ...bulkFlags,
    ...pageFlags,
    granted: Flags.boolean({description: 'Only grants in effect (--no-granted: only revoked or pending ones).', allowNo: true}),
    customer: Flags.string({description: 'Only grants of this customer id (repeatable).', multiple: true}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(BenefitsGrants)
    const client = await this.ctx.client()
    const grants = (id: string) => listBenefitGrants(client, id, {granted: flags.granted, customerId: flags.customer}, this.pageOptions(flags))
    if (args.id !== '-') return this.writeList('benefit-grants', grants(args.id), flags)
    await this.eachId(
      '-',
      flags,
      async (id) => ({benefit_id: id, grants: await collect(grants(id))}),
      (r) => this.writeList('benefit-grants', r.grants, flags),
    )
  }
}
