import {Flags} from '@oclif/core'

import {getOrder} from '../../client/resources/orders.js'
import {createRefund, REFUND_REASONS, type RefundReason} from '../../client/resources/refunds.js'
import {BaseCommand, bulkWriteFlags, outputFlags, dryRunFlag} from '../../areas/command.js'
import {checkIdsFromStdin} from '../../areas/billing/subscriptions.js'
import {usageError} from '../../client/till-error.js'
import {amountFrom, toMinor} from '../../cli/input/money.js'
import {
  amountForTotal,
  amountValidator,
  bulkRefundPreview,
  checkAmount,
  checkRefundable,
  fullRefunder,
  majorText,
  reasonChoices,
  refundableNote,
  refundableOf,
  refundableOrderChoices,
  refundSummary,
  type Refundable,
} from '../../areas/billing/refunds.js'

export default class RefundsCreate extends BaseCommand {
  static override summary = 'Refund an order, in full or in part.'
  static override description =
    `Reads the order first and shows what is still refundable (net of tax; the service adds the matching tax), before asking anything. An amount above it is refused before anything is sent. The refund is confirmed on a terminal, stating the total that leaves with its tax, and needs --yes otherwise.

--order - reads order ids from stdin (one per line, or JSON lines with an id) and refunds the full refundable amount of each, re-read just before its refund. A refund request is never sent twice, and an id repeated in the input is refunded once.`
  static override enableJsonFlag = true
  static override examples = [
    {
      description: 'Refund $12.50 of an order',
      command: '<%= config.bin %> <%= command.id %> --order 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d --amount 12.50 --reason customer_request',
    },
    {
      description: 'Refund 500 cents and revoke the benefits, without a question',
      command: '<%= config.bin %> <%= command.id %> --order 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d --amount-minor 500 --reason duplicate --revoke-benefits --yes',
    },
    {
      description: 'Refund in full every order listed in a file',
      command: '<%= config.bin %> <%= command.id %> --order - --reason service_disruption --yes < order-ids.txt',
    },
  ]

  static override flags = {
    ...outputFlags,
    ...bulkWriteFlags,
    order: Flags.string({description: 'Order to refund, or - to read order ids from stdin (each refunded in full).'}),
    amount: Flags.string({
      description:
        "Amount before tax, in the order's currency, e.g. 12.50: the service adds the order's share of tax to it (default on a terminal: all that is refundable).",
    }),
    'amount-minor': Flags.integer({description: 'Amount before tax in minor units (cents), e.g. 1250.'}),
    total: Flags.string({description: 'Amount that leaves the account, tax included, e.g. 15.00: till works out the amount before tax.'}),
    reason: Flags.option({options: REFUND_REASONS, description: 'Why the order is refunded.'})(),
    comment: Flags.string({description: 'Internal note on the refund.'}),
    'revoke-benefits': Flags.boolean({description: 'Also revoke the benefits the order granted (not for subscription orders).'}),
    yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'}),
    'dry-run': dryRunFlag,
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(RefundsCreate)
    const amounts = {major: flags.amount, minor: flags['amount-minor']}
    const given = [flags.amount, flags['amount-minor'], flags.total].filter((x) => x !== undefined).length
    if (given > 1) throw usageError('give one of --amount, --amount-minor and --total', '--amount is before tax, --total with tax')
    const client = await this.ctx.client()
    const extra = {comment: flags.comment, revoke_benefits: flags['revoke-benefits']}
    if (flags.order === '-') {
      if (amounts.major !== undefined || amounts.minor !== undefined || flags.total !== undefined)
        throw usageError(
          '--order - refunds the full refundable amount of each order: leave out --amount',
          'refund a part of one order with --order ID --amount',
        )
      checkIdsFromStdin('-', this.ctx.io, 'till orders list --status paid -o jsonl')
      const reason = flags.reason ?? (await this.askReason())
      await this.confirmAction('refund the full refundable amount of every order read from stdin', flags.yes, (ids) =>
        bulkRefundPreview(client, ids, flags['revoke-benefits']),
      )
      await this.eachId('-', flags, fullRefunder(client, {reason, ...extra}), (refund) => this.writeOne('refunds', refund, flags))
      return
    }
    const noAmount = amounts.major === undefined && amounts.minor === undefined && flags.total === undefined
    if (noAmount && !this.prompter.interactive)
      throw usageError(
        'missing --amount: the amount to refund',
        'pass --amount 12.00 (before tax; or --amount-minor 1200), or --total 15.00 (tax included), or run in a terminal to be asked',
      )
    const orderId = flags.order ?? (await this.prompter.select('--order', 'Order to refund', () => refundableOrderChoices(client)))
    // what the order allows is shown (and checked) before anything is asked about the refund
    const refundable = refundableOf(await getOrder(client, orderId))
    this.ctx.note(refundableNote(refundable))
    checkRefundable(refundable, flags['revoke-benefits'])
    const reason = flags.reason ?? (await this.askReason())
    const amount = noAmount
      ? toMinor(await this.askAmount(refundable), refundable.currency)
      : flags.total !== undefined
        ? amountForTotal(toMinor(flags.total, refundable.currency), refundable)
        : amountFrom(amounts, refundable.currency)!
    checkAmount(amount, refundable, flags.total !== undefined ? '--total' : amounts.minor === undefined ? '--amount' : '--amount-minor')
    await this.confirmAction(refundSummary(amount, refundable, flags['revoke-benefits']), flags.yes)
    await this.writeCreated('refunds', await createRefund(client, {order_id: orderId, amount, reason, ...extra}), flags)
  }

  private askAmount(r: Refundable): Promise<string> {
    const max = majorText(r.amount, r.currency)
    const withTax = majorText(r.amount + r.refundableTax, r.currency)
    const message =
      r.refundableTax > 0
        ? `Amount to refund in ${r.currency.toUpperCase()}, before tax: the tax is added (at most ${max}; ${withTax} with tax)`
        : `Amount to refund in ${r.currency.toUpperCase()} (at most ${max})`
    return this.prompter.text('--amount', message, {
      default: max,
      validate: amountValidator(r),
    })
  }

  private async askReason(): Promise<RefundReason> {
    if (!this.prompter.interactive) throw usageError('missing --reason: why the order is refunded', `pass --reason with one of: ${REFUND_REASONS.join(', ')}`)
    return (await this.prompter.select('--reason', 'Reason for the refund', async () => reasonChoices(REFUND_REASONS))) as RefundReason
  }
}
