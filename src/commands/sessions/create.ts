import {Flags} from '@oclif/core'

import {createCustomerSession, type SessionCreate} from '../../client/resources/customer-sessions.js'
import {sessionRefused} from '../../cli/reachability.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'
import {usageError} from '../../client/till-error.js'
import {customerSessionColumns} from '../../areas/portal/columns.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export default class SessionsCreate extends BaseCommand {
  static override summary = 'Create a customer session: a Customer Portal token for one customer (valid one hour).'
  static override description =
    `Made with the organization token, for your backend to hand to one customer. The token is printed on stdout only (never in logs or on stderr); --token-only prints nothing else, for:
  export TILL_CUSTOMER_TOKEN=$(till sessions create --external-customer usr_123 --token-only)
after which the till portal commands act as that customer.`
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> --customer 5e9c0c57-3f4e-4a8a-9d61-2b0b1d2c3e4f',
    '<%= config.bin %> <%= command.id %> --external-customer usr_00003 --return-url https://example.com/account',
    {
      description: "A team customer's session acts as one of its members",
      command: '<%= config.bin %> <%= command.id %> --external-customer team_00001 --external-member initech_bill',
    },
    {
      description: 'Act as that customer in this shell',
      command: 'export TILL_CUSTOMER_TOKEN=$(<%= config.bin %> <%= command.id %> --external-customer usr_00003 --token-only)',
    },
  ]

  static override flags = {
    ...outputFlags,
    // One spelling across commands (--customer, --external-customer); the old ones stay as hidden aliases.
    customer: Flags.string({description: "The customer's id.", aliases: ['customer-id'], deprecateAliases: true, exclusive: ['external-customer']}),
    'external-customer': Flags.string({
      description: "The customer's external id (your own id for it).",
      aliases: ['external-customer-id', 'customer-external-id'],
      deprecateAliases: true,
    }),
    member: Flags.string({
      description: "The customer's member the session acts as, by id (a team customer's session needs one; an individual's acts as its owner).",
      aliases: ['member-id'],
      exclusive: ['external-member'],
    }),
    'external-member': Flags.string({description: "The customer's member the session acts as, by your external id for the member."}),
    'return-url': Flags.string({description: "Where the portal's back link goes."}),
    'token-only': Flags.boolean({description: 'Print only the token (for TILL_CUSTOMER_TOKEN).'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(SessionsCreate)
    let customer: {customer_id: string} | {external_customer_id: string}
    if (flags.customer) customer = {customer_id: flags.customer}
    else if (flags['external-customer']) customer = {external_customer_id: flags['external-customer']}
    else {
      const given = (await this.prompter.text('--customer or --external-customer', 'the customer (id or external id)')).trim()
      customer = UUID.test(given) ? {customer_id: given} : {external_customer_id: given}
    }
    if (Object.values(customer)[0] === '') throw usageError('the customer id is empty')
    const member = flags.member ? {member_id: flags.member} : flags['external-member'] ? {external_member_id: flags['external-member']} : {}
    const body: SessionCreate = {...customer, ...member, return_url: flags['return-url']}
    const as = 'external_customer_id' in customer ? {externalId: customer.external_customer_id} : {customerId: customer.customer_id}
    const session = await createCustomerSession(await this.ctx.client(), body).catch((error: unknown) => {
      throw sessionRefused(error, as, {external: '--external-customer', id: '--customer', member: '--external-member EXTERNAL_ID or --member ID'}) ?? error
    })
    if (flags['token-only']) {
      this.ctx.io.stdout.write(`${session.token}\n`)
      return
    }
    // The session's default columns for tables and csv/tsv; JSON keeps the whole session unless --columns is given.
    await this.writeCreated('customer-sessions', session, flags, {secret: 'token', columns: customerSessionColumns.defaults})
  }
}
