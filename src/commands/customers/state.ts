import {Args} from '@oclif/core'

import {getCustomerState} from '../../client/resources/customers.js'
import {BaseCommand, bulkFlags, outputFlags} from '../../areas/command.js'
import {customerTarget, externalIdFlag, stateHeading, stateRows, stateView} from '../../areas/customers/customers.js'
import {resolveFormat} from '../../cli/output/format.js'

export default class CustomersState extends BaseCommand {
  static override summary = "Show a customer's active subscriptions and granted benefits, with their metadata."
  static override description =
    "On a terminal: the customer, then one table of active subscriptions and one of granted benefits. csv and tsv give both lists as rows with a kind column (subscription or benefit); --json prints the API's customer state object unchanged."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 5e9c0c57-3f4e-4a8a-9d61-2b0b1d2c3e4f',
    {
      description: 'Which benefits does the customer with your id user_1234 hold?',
      command: "<%= config.bin %> <%= command.id %> --external-id user_1234 --json | jq '.granted_benefits[].benefit_type'",
    },
  ]

  static override args = {id: Args.string({description: 'Customer id, or - to read ids from stdin.', ignoreStdin: true})}
  static override flags = {...outputFlags, ...bulkFlags, 'external-id': externalIdFlag}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(CustomersState)
    const target = await customerTarget(args.id, flags['external-id'], this.prompter, () => this.ctx.client(), 'Customer whose state to show')
    const client = await this.ctx.client()
    const format = resolveFormat({output: flags.output, json: flags.json, stdoutIsTTY: this.ctx.io.stdoutIsTTY})
    let bulkSeen = 0
    await this.eachId(
      target.value,
      flags,
      (v) => getCustomerState(client, target.ref(v)),
      async (state) => {
        if (format === 'json' || format === 'jsonl') return this.writeOne('customer-state', state, flags)
        const view = await stateView(client, state)
        if (format !== 'table') return this.writeList('customer-state', stateRows(view, state.id), flags)
        const out = this.ctx.io.stdout
        if (bulkSeen++ > 0) out.write('\n')
        out.write(`${stateHeading(state)}\n\nActive subscriptions (${view.subscriptions.length})\n`)
        if (view.subscriptions.length === 0) out.write('  none\n')
        else await this.writeList('customer-subscriptions', view.subscriptions, {...flags, columns: undefined})
        out.write(`\nGranted benefits (${view.benefits.length})\n`)
        if (view.benefits.length === 0) out.write('  none\n')
        else await this.writeList('customer-benefits', view.benefits, {...flags, columns: undefined})
      },
    )
  }
}
