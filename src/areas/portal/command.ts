// The base of `till portal ...` commands: they act for one customer on the Customer Portal API.
import {Flags} from '@oclif/core'

import type {ApiClient} from '../../client/client.js'
import {customerGiven, keyCheckOrganizationId} from '../../client/resources/portal.js'
import {BaseCommand} from '../command.js'

/** The flags that say whom the portal acts for. */
export interface PortalFlags {
  'as-customer'?: string
  'as-customer-id'?: string
  'as-member'?: string
  'as-member-external-id'?: string
}

export abstract class PortalCommand extends BaseCommand {
  static override baseFlags = {
    ...BaseCommand.baseFlags,
    'as-customer': Flags.string({
      description:
        "Act as the customer with this external id: a customer session is created with the profile's organization token for this command only (else TILL_CUSTOMER_TOKEN is used).",
      helpGroup: 'CUSTOMER',
      exclusive: ['as-customer-id'],
    }),
    'as-customer-id': Flags.string({description: 'Act as the customer with this id (see --as-customer).', helpGroup: 'CUSTOMER'}),
    'as-member': Flags.string({
      description:
        "With --as-customer or --as-customer-id: act as this member of the customer, by id (a team customer's session needs one; an individual's acts as its owner).",
      helpGroup: 'CUSTOMER',
      exclusive: ['as-member-external-id'],
    }),
    'as-member-external-id': Flags.string({description: "Act as the customer's member with this external id (see --as-member).", helpGroup: 'CUSTOMER'}),
  }

  protected override surface = 'portal' as const

  /** The Customer Portal client for the customer named by the flags or TILL_CUSTOMER_TOKEN. */
  protected portalClient(flags: PortalFlags): Promise<ApiClient> {
    return this.ctx.customerClient({
      externalId: flags['as-customer'],
      customerId: flags['as-customer-id'],
      memberId: flags['as-member'],
      memberExternalId: flags['as-member-external-id'],
    })
  }

  /**
   * The organization id the unauthenticated license-key routes need: --organization-id, else the given
   * customer's, else the profile's, else the one the organization token belongs to.
   */
  protected keyCheckOrganization(flags: PortalFlags & {'organization-id'?: string}): Promise<string> {
    return keyCheckOrganizationId({
      given: flags['organization-id'],
      customer: customerGiven(flags) ? () => this.portalClient(flags) : undefined,
      configured: this.ctx.profile.organizationId,
      organization: () => this.ctx.client(),
    })
  }
}
