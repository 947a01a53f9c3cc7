import {Flags} from '@oclif/core'

import {BENEFIT_TYPES} from '../../../client/resources/benefits.js'
import {listPortalBenefitGrants} from '../../../client/resources/portal.js'
import {outputFlags, pageFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'

export default class PortalBenefitGrantsList extends PortalCommand {
  static override summary = 'List the benefits granted to the signed-in customer, most recently granted first.'
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --as-customer usr_00003 --type license_keys --json']

  static override flags = {
    ...outputFlags,
    ...pageFlags,
    type: Flags.option({options: BENEFIT_TYPES, description: 'Only grants of benefits of this type (repeatable).', multiple: true})(),
    benefit: Flags.string({description: 'Only grants of this benefit id (repeatable).', multiple: true}),
    order: Flags.string({description: 'Only grants from this order id (repeatable).', multiple: true}),
    subscription: Flags.string({description: 'Only grants from this subscription id (repeatable).', multiple: true}),
    query: Flags.string({description: "Only grants whose benefit's description contains this text."}),
    sort: Flags.string({description: 'Sort keys, comma-separated; a leading - sorts descending (granted_at, created_at, type).'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(PortalBenefitGrantsList)
    const items = listPortalBenefitGrants(
      await this.portalClient(flags),
      {
        type: flags.type,
        benefitId: flags.benefit,
        orderId: flags.order,
        subscriptionId: flags.subscription,
        query: flags.query,
        sorting: flags.sort?.split(','),
      },
      this.pageOptions(flags),
    )
    await this.writeList('benefit-grants', items, flags)
  }
}
