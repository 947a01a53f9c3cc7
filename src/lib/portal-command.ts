// The base of `till portal ...` commands: they act for one customer on the Customer Portal API.
import {Flags} from '@oclif/core'

import type {ApiClient} from './api/client.js'
import {BaseCommand} from './base-command.js'

export abstract class PortalCommand extends BaseCommand {
  static override baseFlags = {
    ...BaseCommand.baseFlags,
    'as-customer': Flags.string({
      description: 'Act as the customer with this external id: a customer session is created with the profile\'s organization token for this command only (else TILL_CUSTOMER_TOKEN is used).',
      helpGroup: 'CUSTOMER',
      exclusive: ['as-customer-id'],
    }),
    'as-customer-id': Flags.string({description: 'Act as the customer with this id (see --as-customer).', helpGroup: 'CUSTOMER'}),
  }

  protected override surface = 'portal' as const

  /** The Customer Portal client for the customer named by the flags or TILL_CUSTOMER_TOKEN. */
  protected portalClient(flags: {'as-customer'?: string; 'as-customer-id'?: string}): Promise<ApiClient> {
    return this.ctx.customerClient({externalId: flags['as-customer'], customerId: flags['as-customer-id']})
  }
}
