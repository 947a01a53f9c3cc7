import {Args, Flags} from '@oclif/core'

import {changeSubscriptionProduct, PRORATIONS} from '../../client/resources/subscriptions.js'
import {BaseCommand, bulkFlags, outputFlags, dryRunFlag} from '../../areas/command.js'
import {actionSummary, checkIdsFromStdin, planChangeWords, planChoices} from '../../areas/billing/subscriptions.js'

export default class SubscriptionsUpdate extends BaseCommand {
  static override summary = "Change a subscription's plan (product), choosing how the difference is billed."
  static override description = `--proration says how the change is billed: invoice (bill the prorated difference now), prorate (add the prorated difference to the next invoice; the usual organization default), next_period (the new price applies from the next period), reset (start a new period now, billed in full). A change to a different billing interval always starts a new period.

A plan change can charge the customer, so it is confirmed on a terminal and needs --yes otherwise. Without --product, a terminal offers the recurring products. Give - as ID to read subscription ids from stdin (one per line or JSON lines with an id).`
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09 --product 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21 --proration invoice',
    {description: 'Pick the new plan from a list', command: '<%= config.bin %> <%= command.id %> 0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09'},
    {description: 'Move every subscriber of one product to another from the next period', command: '<%= config.bin %> subscriptions list --product 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d --active --all -o jsonl | <%= config.bin %> <%= command.id %> - --product 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21 --proration next_period --yes'},
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Subscription id, or - to read ids from stdin.', required: true})}
  static override flags = {
    ...outputFlags, ...bulkFlags,
    product: Flags.string({description: 'The product to move the subscription to (a recurring product).'}),
    proration: Flags.option({options: PRORATIONS, description: "How the price difference is billed (default: the organization's setting)."})(),
    yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'}), 'dry-run': dryRunFlag,
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(SubscriptionsUpdate)
    checkIdsFromStdin(args.id, this.ctx.io)
    const client = await this.ctx.client()
    const productId = flags.product ?? (await this.prompter.select('--product', 'New plan (product)', () => planChoices(client)))
    const words = planChangeWords(client, productId, flags.proration)
    await this.confirmAction(await actionSummary(client, args.id, words, this.prompter.interactive && !flags.yes), flags.yes)
    const change = (id: string) => changeSubscriptionProduct(client, id, {product_id: productId, ...(flags.proration ? {proration_behavior: flags.proration} : {})})
    await this.eachId(args.id, flags, change, (s) => this.writeOne('subscriptions', s, flags))
  }
}
