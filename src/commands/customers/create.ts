import {Flags} from '@oclif/core'

import {createCustomer, updateCustomer} from '../../client/resources/customers.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'
import {addressFlags, addressFrom} from '../../cli/input/address.js'
import {parsePairs} from '../../cli/input/fields.js'
import {toTillError} from '../../client/errors.js'
import {TillError} from '../../client/till-error.js'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export default class CustomersCreate extends BaseCommand {
  static override summary = 'Create a customer.'
  static override description = 'A terminal asks for the email when --email is missing. --external-id links the customer to your own id for it (it cannot be changed later). The API takes no billing name on creation, so --billing-name is set by a second request right after; the new customer\'s id is printed before that request, and if it fails the error says how to finish.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> --email ada@example.com --name "Ada Lovelace" --external-id user_1234',
    {description: 'With metadata and a billing address', command: '<%= config.bin %> <%= command.id %> --email ops@acme.example --metadata plan=enterprise --billing-name "Acme GmbH" --country DE --line1 "Unter den Linden 5" --postal-code 10117 --city Berlin'},
  ]

  static override flags = {
    ...outputFlags,
    email: Flags.string({description: 'Email address (asked for on a terminal when missing).'}),
    name: Flags.string({description: 'Name.'}),
    'external-id': Flags.string({description: 'Your own id for the customer (immutable once set).'}),
    metadata: Flags.string({description: 'Metadata, key=value (repeatable).', multiple: true}),
    'billing-name': Flags.string({description: 'Name printed on invoices.'}),
    ...addressFlags,
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(CustomersCreate)
    const metadata = parsePairs(flags.metadata, '--metadata')
    const billingAddress = addressFrom(flags)
    const email = flags.email ?? (await this.prompter.text('--email', 'Email address of the customer', {validate: (v) => EMAIL.test(v.trim()) || 'an email address, like ada@example.com'})).trim()
    const client = await this.ctx.client()
    let customer = await createCustomer(client, {
      email,
      name: flags.name,
      external_id: flags['external-id'],
      metadata,
      billing_address: billingAddress,
    })
    this.ctx.note(`Created customer ${customer.id}.`)
    const billingName = flags['billing-name']
    if (billingName !== undefined) {
      try {
        customer = await updateCustomer(client, {id: customer.id}, {billing_name: billingName})
      } catch (error) {
        // The customer exists: print it as created, then say what is left to do.
        await this.writeCreated('customers', customer, flags)
        const cause = toTillError(error, this.errorContext())
        throw new TillError(
          `customer ${customer.id} was created, but setting its billing name failed: ${cause.message}`,
          cause.exitCode,
          `finish with: till customers update ${customer.id} --billing-name ${JSON.stringify(billingName)}`,
        )
      }
    }
    await this.writeCreated('customers', customer, flags)
  }
}
