import {Args, Flags} from '@oclif/core'

import {getCustomer, updateCustomer, type CustomerRef, type CustomerUpdate} from '../../client/resources/customers.js'
import type {Address} from '../../client/resources/orders.js'
import {BaseCommand, bulkWriteFlags, outputFlags} from '../../areas/command.js'
import {addressFlags, addressFlagsGiven, addressFrom} from '../../cli/input/address.js'
import {billingNameFlag, customerTarget, externalIdFlag, refuseBillingName} from '../../areas/customers/customers.js'
import {mergeMetadata, parsePairs} from '../../cli/input/fields.js'
import {usageError} from '../../client/till-error.js'

export default class CustomersUpdate extends BaseCommand {
  static override summary = "Change a customer's email, name, type, metadata, external id or billing address."
  static override description =
    'Metadata and address flags are merged into what the customer already has (--remove-metadata drops a key). The service refuses to change an external id once set, to remove a billing address, and to make a team customer an individual again. Give - as ID (or as --external-id) to make the same change to every customer read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 5e9c0c57-3f4e-4a8a-9d61-2b0b1d2c3e4f --name "Ada King" --metadata plan=pro',
    {
      description: 'By external id, setting the billing address',
      command:
        '<%= config.bin %> <%= command.id %> --external-id user_1234 --country US --line1 "1 Main St" --city Springfield --postal-code 12345 --state US-IL',
    },
  ]

  static override args = {id: Args.string({description: 'Customer id, or - to read ids from stdin.', ignoreStdin: true})}
  static override flags = {
    ...outputFlags,
    ...bulkWriteFlags,
    'external-id': externalIdFlag,
    email: Flags.string({description: 'New email address.'}),
    name: Flags.string({description: 'New name.'}),
    'set-external-id': Flags.string({description: 'Set your own id for a customer that has none yet.'}),
    type: Flags.string({description: 'team: make an individual customer a team, which can have members (a team stays one).', options: ['individual', 'team']}),
    metadata: Flags.string({description: 'Set metadata, key=value (repeatable; other keys are kept).', multiple: true}),
    'remove-metadata': Flags.string({description: 'Remove this metadata key (repeatable).', multiple: true}),
    'billing-name': billingNameFlag,
    ...addressFlags,
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(CustomersUpdate)
    refuseBillingName(flags['billing-name'])
    const metadata = parsePairs(flags.metadata, '--metadata')
    const removed = flags['remove-metadata']
    const address = addressFlagsGiven(flags)
    const body: CustomerUpdate = {email: flags.email, name: flags.name, external_id: flags['set-external-id'], type: flags.type as CustomerUpdate['type']}
    if (Object.values(body).every((v) => v === undefined) && !metadata && !removed && !address) {
      throw usageError('nothing to update', 'pass --email, --name, --type, --metadata, --remove-metadata, --set-external-id or address flags')
    }
    const target = await customerTarget(args.id, flags['external-id'], this.prompter, () => this.ctx.client(), 'Customer to update')
    const client = await this.ctx.client()
    const update = async (ref: CustomerRef) => {
      const changes = {...body}
      if (metadata || removed || address) {
        const current = await getCustomer(client, ref)
        if (metadata || removed) changes.metadata = mergeMetadata(current.metadata, flags.metadata, removed) as CustomerUpdate['metadata']
        if (address) changes.billing_address = addressFrom(flags, current.billing_address as Address | null)
      }
      return updateCustomer(client, ref, changes)
    }
    await this.eachId(
      target.value,
      flags,
      (v) => update(target.ref(v)),
      (customer) => this.writeChanged('customers', customer, flags),
    )
  }
}
