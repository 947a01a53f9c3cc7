import {Args, Flags} from '@oclif/core'

import {changeSubscriptionProduct, PRORATIONS, setSubscriptionDiscount, updateSubscriptionSeats} from '../../client/resources/subscriptions.js'
import {updateSubscriptionUnits} from '../../client/resources/subscriptions.js'
import type {Subscription} from '../../client/wire/index.js'
import {usageError} from '../../client/till-error.js'
import {BaseCommand, bulkWriteFlags, outputFlags, dryRunFlag} from '../../areas/command.js'
import {actionSummary, checkIdsFromStdin, discountWords, planChangeWords, planChoices, seatsWords, unitsWords} from '../../areas/billing/subscriptions.js'

export default class SubscriptionsUpdate extends BaseCommand {
  static override summary = "Change a subscription's plan (product) or its number of seats, choosing how the difference is billed, or its discount."
  static override description =
    `--proration says how the change is billed: invoice (bill the prorated difference now), prorate (add the prorated difference to the next invoice; the usual organization default), next_period (the new price applies from the next period), reset (start a new period now, billed in full). A change to a different billing interval always starts a new period.

--seats sets a seat-based subscription's number of seats, within its price's tiers and never below the seats assigned (revoke seats first: till seats revoke); --proration applies as for a plan change (next_period: from the next renewal), and the service refuses reset for organizations without it.

--units sets a unit-based subscription's number of units (the service refuses it for any other subscription); --proration applies as for seats.

--discount applies a discount to the subscription and --remove-discount takes it off, both from its next renewal on; the service refuses a discount that does not exist, is not for the subscription's product or currency, or cannot be redeemed any more. The service takes one kind of change per request: a plan change and a discount change are two runs.

A plan, seats, units or discount change changes what the customer pays, so it is confirmed on a terminal and needs --yes otherwise. Without --product, a terminal offers the recurring products. Give - as ID to read subscription ids from stdin (one per line or JSON lines with an id).`
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09 --product 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21 --proration invoice',
    {description: 'Pick the new plan from a list', command: '<%= config.bin %> <%= command.id %> 0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09'},
    {
      description: 'Ten seats, the difference for the rest of the period billed now',
      command: '<%= config.bin %> <%= command.id %> 0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09 --seats 10 --proration invoice',
    },
    {
      description: 'A discount from the next renewal on',
      command: '<%= config.bin %> <%= command.id %> 0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09 --discount 5b0e6d2c-7a1f-4c3e-9d8b-2f4a6c8e0b1d',
    },
    {
      description: 'Take it off again, without a terminal',
      command: '<%= config.bin %> <%= command.id %> 0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09 --remove-discount --yes',
    },
    {
      description: 'Move every subscriber of one product to another from the next period',
      command:
        '<%= config.bin %> subscriptions list --product 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d --active --all -o jsonl | <%= config.bin %> <%= command.id %> - --product 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21 --proration next_period --yes',
    },
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Subscription id, or - to read ids from stdin.', required: true})}
  static override flags = {
    ...outputFlags,
    ...bulkWriteFlags,
    product: Flags.string({description: 'The product to move the subscription to (a recurring product).'}),
    proration: Flags.option({options: PRORATIONS, description: "How the price difference is billed (default: the organization's setting)."})(),
    seats: Flags.integer({description: 'Set the number of seats of a seat-based subscription, instead of changing the plan.', min: 1}),
    units: Flags.integer({
      description: 'Set the number of units of a unit-based subscription, instead of changing the plan.',
      min: 1,
      exclusive: ['seats'],
    }),
    discount: Flags.string({description: 'Apply this discount (id) from the next renewal on, instead of changing the plan.'}),
    'remove-discount': Flags.boolean({description: "Remove the subscription's discount from the next renewal on, instead of changing the plan."}),
    yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'}),
    'dry-run': dryRunFlag,
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(SubscriptionsUpdate)
    checkIdsFromStdin(args.id, this.ctx.io)
    const discountChange = flags.discount !== undefined || flags['remove-discount']
    if (discountChange) {
      if (flags.discount !== undefined && flags['remove-discount'])
        throw usageError('--discount and --remove-discount cannot be used together', 'give one of them')
      const given = flags.discount === undefined ? '--remove-discount' : '--discount'
      if (flags.product || flags.proration) {
        throw usageError(
          `${given} cannot be combined with ${flags.product ? '--product' : '--proration'}: the service takes one kind of change per request`,
          'change the plan and the discount in two runs',
        )
      }
      if (flags.discount === '')
        throw usageError('--discount needs a discount id', 'e.g. --discount 5b0e6d2c-7a1f-4c3e-9d8b-2f4a6c8e0b1d, or --remove-discount')
    }
    const count = flags.seats !== undefined ? '--seats' : '--units'
    if ((flags.seats !== undefined || flags.units !== undefined) && (flags.product || discountChange)) {
      throw usageError(
        `${count} cannot be combined with ${flags.product ? '--product' : flags.discount === undefined ? '--remove-discount' : '--discount'}: the service takes one kind of change per request`,
        `change the ${count.slice(2)} and the rest in two runs`,
      )
    }
    const client = await this.ctx.client()
    if (flags.seats !== undefined) {
      const seats = flags.seats
      await this.confirmAction(await actionSummary(client, args.id, seatsWords(seats, flags.proration), this.prompter.interactive && !flags.yes), flags.yes)
      const body = {seats, ...(flags.proration ? {proration_behavior: flags.proration} : {})}
      await this.eachId(
        args.id,
        flags,
        (id) => updateSubscriptionSeats(client, id, body),
        (s) => this.writeChanged('subscriptions', s, flags),
      )
      return
    }
    if (flags.units !== undefined) {
      const {units} = flags
      await this.confirmAction(await actionSummary(client, args.id, unitsWords(units, flags.proration), this.prompter.interactive && !flags.yes), flags.yes)
      const body = {units, ...(flags.proration ? {proration_behavior: flags.proration} : {})}
      const write = (s: Subscription) => this.writeChanged('subscriptions', s, flags)
      await this.eachId(args.id, flags, (id) => updateSubscriptionUnits(client, id, body), write)
      return
    }
    if (discountChange) {
      const discountId = flags.discount ?? null
      await this.confirmAction(await actionSummary(client, args.id, discountWords(client, discountId), this.prompter.interactive && !flags.yes), flags.yes)
      await this.eachId(
        args.id,
        flags,
        (id) => setSubscriptionDiscount(client, id, discountId),
        (s) => this.writeChanged('subscriptions', s, flags),
      )
      return
    }
    const productId = flags.product ?? (await this.prompter.select('--product', 'New plan (product)', () => planChoices(client)))
    const words = planChangeWords(client, productId, flags.proration)
    await this.confirmAction(await actionSummary(client, args.id, words, this.prompter.interactive && !flags.yes), flags.yes)
    const change = (id: string) =>
      changeSubscriptionProduct(client, id, {product_id: productId, ...(flags.proration ? {proration_behavior: flags.proration} : {})})
    await this.eachId(args.id, flags, change, (s) => this.writeChanged('subscriptions', s, flags))
  }
}
