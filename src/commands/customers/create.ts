import {Flags} from '@oclif/core'

import {createCustomer} from '../../client/resources/customers.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'
import {addressFlags, addressFrom} from '../../cli/input/address.js'
import {parsePairs} from '../../cli/input/fields.js'
import {billingNameFlag, refuseBillingName} from '../../areas/customers/customers.js'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export default class CustomersCreate extends BaseCommand {
  static override summary = 'Create a customer.'
  static override description =
    "A terminal asks for the email when --email is missing (a team customer may do without one when --owner-email is given). Every customer gets an owner member: its own email and name, or the --owner-* flags. --external-id links the customer to your own id for it (it cannot be changed later). The API takes no billing name for a customer: the service sets it from checkouts and the customer portal (an order's own: till orders update ID --billing-name)."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> --email ada@example.com --name "Ada Lovelace" --external-id user_1234',
    {
      description: 'A team customer, whose owner is one of its people (add the others with till customers members add)',
      command:
        '<%= config.bin %> <%= command.id %> --type team --name Initech --email billing@initech.example --owner-email bill@initech.example --owner-name "Bill Lumbergh"',
    },
    {
      description: 'With metadata and a billing address',
      command:
        '<%= config.bin %> <%= command.id %> --email ops@acme.example --metadata plan=enterprise --country DE --line1 "Unter den Linden 5" --postal-code 10117 --city Berlin',
    },
  ]

  static override flags = {
    ...outputFlags,
    email: Flags.string({description: 'Email address (asked for on a terminal when missing).'}),
    name: Flags.string({description: 'Name.'}),
    'external-id': Flags.string({description: 'Your own id for the customer (immutable once set).'}),
    metadata: Flags.string({description: 'Metadata, key=value (repeatable).', multiple: true}),
    type: Flags.string({
      description: 'individual (one person), or team (members with roles: till customers members).',
      options: ['individual', 'team'],
      default: 'individual',
    }),
    'owner-email': Flags.string({description: "The owner member's email (default: the customer's)."}),
    'owner-name': Flags.string({description: "The owner member's name (default: the customer's)."}),
    'owner-external-id': Flags.string({description: "Your own id for the owner member (default: the customer's external id)."}),
    'billing-name': billingNameFlag,
    ...addressFlags,
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(CustomersCreate)
    refuseBillingName(flags['billing-name'])
    const metadata = parsePairs(flags.metadata, '--metadata')
    const billingAddress = addressFrom(flags)
    const team = flags.type === 'team'
    const ownerGiven = flags['owner-email'] !== undefined || flags['owner-name'] !== undefined || flags['owner-external-id'] !== undefined
    // a team customer may have no email of its own when its owner has one
    const email =
      flags.email ??
      (team && flags['owner-email'] !== undefined
        ? undefined
        : (
            await this.prompter.text('--email', 'Email address of the customer', {
              validate: (v) => EMAIL.test(v.trim()) || 'an email address, like ada@example.com',
            })
          ).trim())
    const owner = ownerGiven ? {email: flags['owner-email'] ?? email!, name: flags['owner-name'], external_id: flags['owner-external-id']} : undefined
    const fields = {name: flags.name, external_id: flags['external-id'], metadata, billing_address: billingAddress, owner}
    const client = await this.ctx.client()
    const customer = await createCustomer(client, team ? {type: 'team', email, ...fields} : {email: email!, ...fields})
    await this.writeCreated('customers', customer, flags)
  }
}
