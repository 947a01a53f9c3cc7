// Refund logic behind `till refunds create`: what an order still allows, local refusal of an amount above
// it (nothing is sent), the confirmation text, and the full-amount refund of ids read from stdin.
import type {ApiClient} from '../../client/client.js'
import {getOrder, listOrders} from '../../client/resources/orders.js'
import {createRefund, listRefunds, type RefundCreate} from '../../client/resources/refunds.js'
import {currentAttempt, markAlreadyDone} from '../../client/attempt.js'
import type {Item} from '../../client/resources/common.js'
import {ExitCode, TillError, usageError} from '../../client/till-error.js'
import {formatMoney, toMinor} from '../../cli/input/money.js'
import {minorDigits} from '../../cli/output/format.js'
import type {Choice} from '../../cli/prompt.js'

/** What can still be refunded on an order, read from its current fields. */
export interface Refundable {
  orderId: string
  status: string
  paid: boolean
  /** Minor units, pre-tax. */
  amount: number
  /** Refunded so far, minor units. */
  refunded: number
  /** The order's net amount and tax, and the tax still refundable (minor units): a refund takes its share of tax. */
  net: number
  tax: number
  refundableTax: number
  currency: string
  subscriptionId: string | null
}

export function refundableOf(order: Item): Refundable {
  return {
    orderId: order.id,
    status: String(order.status),
    paid: order.paid === true,
    amount: typeof order.refundable_amount === 'number' ? order.refundable_amount : 0,
    refunded: typeof order.refunded_amount === 'number' ? order.refunded_amount : 0,
    net: typeof order.net_amount === 'number' ? order.net_amount : 0,
    tax: typeof order.tax_amount === 'number' ? order.tax_amount : 0,
    refundableTax: typeof order.refundable_tax_amount === 'number' ? order.refundable_tax_amount : 0,
    currency: typeof order.currency === 'string' ? order.currency : 'usd',
    subscriptionId: typeof order.subscription_id === 'string' ? order.subscription_id : null,
  }
}

/** `$12.00 (USD)`. */
export const moneyText = (minor: number, currency: string) => `${formatMoney(minor, currency, {grouping: true})} (${currency.toUpperCase()})`

/**
 * The tax the service refunds with `amount` (pre-tax), as it computes it: the order's share of tax for the
 * amount, or all the tax still refundable when the rest of the order is refunded.
 */
export function refundTax(amount: number, r: Refundable): number {
  if (amount === r.amount) return r.refundableTax
  return r.net > 0 ? Math.min(r.refundableTax, Math.round((amount * r.tax) / r.net)) : 0
}

/** `$15.00 (USD) ($12.00 + $3.00 tax)`: what leaves the account, tax included. */
export function totalText(amount: number, r: Refundable): string {
  const tax = refundTax(amount, r)
  if (tax === 0) return moneyText(amount, r.currency)
  const money = (minor: number) => formatMoney(minor, r.currency, {grouping: true})
  return `${moneyText(amount + tax, r.currency)} (${money(amount)} + ${money(tax)} tax)`
}

/** `refund $15.00 (USD) ($12.00 + $3.00 tax) of order X`: the total that leaves, tax included. */
export const refundSummary = (amount: number, r: Refundable, revokeBenefits = false) =>
  `refund ${totalText(amount, r)} of order ${r.orderId}${revokeBenefits ? ' and revoke the benefits it granted' : ''}`

/** `Order X (paid): $12.00 (USD) refundable, $15.00 with tax.` */
export function refundableNote(r: Refundable): string {
  const withTax = r.refundableTax > 0 ? `, ${formatMoney(r.amount + r.refundableTax, r.currency, {grouping: true})} with tax` : ''
  return `Order ${r.orderId} (${r.status}): ${moneyText(r.amount, r.currency)} refundable${withTax}.`
}

/** Refuses, before anything is sent, an order that cannot be refunded (or not with `revokeBenefits`). */
export function checkRefundable(r: Refundable, revokeBenefits = false): void {
  if (!r.paid) throw usageError(`order ${r.orderId} is ${r.status}, not paid: there is no payment to refund`)
  if (r.amount <= 0 && r.refunded > 0) throw usageError(`order ${r.orderId} is already fully refunded: nothing is left to refund`)
  if (r.amount <= 0) throw usageError(`order ${r.orderId} has nothing to refund: it was paid ${formatMoney(0, r.currency)}`)
  if (revokeBenefits && r.subscriptionId) {
    throw usageError(
      `--revoke-benefits is not possible on order ${r.orderId}: it belongs to subscription ${r.subscriptionId}, whose benefits end when it ends`,
      `refund without --revoke-benefits, and end the subscription with: till subscriptions revoke ${r.subscriptionId}`,
    )
  }
}

/**
 * The amount before tax whose refund, with the tax the service adds to it, is `total` (what the Stripe CLI
 * and a customer's bank statement call the refund). Throws a usage error when no amount gives that total.
 */
export function amountForTotal(total: number, r: Refundable): number {
  if (total === r.amount + r.refundableTax) return r.amount
  const estimate = r.net + r.tax > 0 ? Math.round((total * r.net) / (r.net + r.tax)) : total
  for (const a of [estimate, estimate - 1, estimate + 1, estimate - 2, estimate + 2]) {
    if (a > 0 && a <= r.amount && a + refundTax(a, r) === total) return a
  }
  const most = r.amount + r.refundableTax
  if (total > most)
    throw usageError(
      `--total ${moneyText(total, r.currency)} is above what order ${r.orderId} can refund with its tax, ${moneyText(most, r.currency)}`,
      `refund at most ${formatMoney(most, r.currency)} with --total; nothing was sent`,
    )
  const near = totalText(estimate, r)
  throw usageError(
    `--total ${moneyText(total, r.currency)}: no amount before tax gives that total with the tax rounded to cents`,
    `the nearest is ${near}; give --amount ${majorText(estimate, r.currency)} for it`,
  )
}

/** Refuses, before anything is sent, an amount of zero or above what the order allows. */
export function checkAmount(amount: number, r: Refundable, flag = '--amount'): void {
  if (amount <= 0) throw usageError(`${flag} must be more than zero`)
  if (amount > r.amount) {
    throw usageError(
      `${flag} ${moneyText(amount, r.currency)} is above the refundable amount of order ${r.orderId}, ${moneyText(r.amount, r.currency)}`,
      `refund at most ${formatMoney(r.amount, r.currency)}; nothing was sent`,
    )
  }
}

/** Recent orders with something left to refund, for the --order prompt (at most `max`, of the last `scan` paid ones). */
export async function refundableOrderChoices(client: ApiClient, max = 30, scan = 200): Promise<Choice[]> {
  const choices: Choice[] = []
  for await (const order of listOrders(client, {status: ['paid', 'partially_refunded']}, {limit: 100, maxItems: scan})) {
    const r = refundableOf(order)
    if (!r.paid || r.amount <= 0) continue
    const customer = (order.customer as {email?: string} | null)?.email ?? order.customer_id
    const product = (order.product as {name?: string} | null)?.name ?? String(order.description ?? '')
    choices.push({name: `${order.id}  ${moneyText(r.amount, r.currency)} refundable  ${customer}  ${product}`, value: order.id})
    if (choices.length >= max) break
  }
  return choices
}

/** Refunds what is left on one order (ids from stdin): a fresh read of the order, its checks, one POST. */
export function fullRefunder(client: ApiClient, base: Omit<RefundCreate, 'order_id' | 'amount'>): (orderId: string) => Promise<Item> {
  const seen = new Set<string>()
  return async (orderId) => {
    // A repeated id is never refunded twice, even while its first refund is still in flight.
    if (seen.has(orderId)) throw new TillError(`order ${orderId} was already given earlier in the input; it is refunded once only`, ExitCode.usage)
    seen.add(orderId)
    const r = refundableOf(await getOrder(client, orderId))
    // a stopped run of the job may have refunded it: then its refund is the result
    if (currentAttempt()?.earlier && r.amount <= 0 && r.refunded > 0) {
      const refunds = listRefunds(client, {orderId: [orderId], sorting: ['-created_at']}, {limit: 1, maxItems: 1})
      for await (const refund of refunds) {
        markAlreadyDone(`order ${orderId} was refunded in full by an earlier run of this job`)
        return refund
      }
    }
    checkRefundable(r, base.revoke_benefits)
    return createRefund(client, {...base, order_id: orderId, amount: r.amount})
  }
}

/** `1200` USD -> `12.00`: the form `--amount` takes, for the prompt's default. */
export function majorText(minor: number, currency: string): string {
  const digits = minorDigits(currency.toUpperCase())
  return (minor / 10 ** digits).toFixed(digits)
}

/** Validation of an amount typed at the prompt: the same checks as the flags, as a message. */
export function amountValidator(r: Refundable): (text: string) => true | string {
  return (text) => {
    try {
      checkAmount(toMinor(text, r.currency, 'the amount'), r, 'the amount')
      return true
    } catch (error) {
      return (error as Error).message
    }
  }
}

export const reasonChoices = (reasons: readonly string[]): Choice[] => reasons.map((r) => ({name: r.replaceAll('_', ' '), value: r}))

/**
 * The preview of refunding in full every order of `ids` (each read once): how many orders, and the
 * total per currency, e.g. `refund 14 orders read from stdin in full, $1,284.00 in all`. Ids that
 * cannot be refunded (unknown, unpaid, nothing left, repeated) are counted apart: they will fail.
 */
export async function bulkRefundPreview(client: ApiClient, ids: string[], revokeBenefits = false): Promise<string> {
  const totals = new Map<string, number>()
  let count = 0
  for (const id of new Set(ids)) {
    try {
      const r = refundableOf(await getOrder(client, id))
      checkRefundable(r, revokeBenefits)
      totals.set(r.currency, (totals.get(r.currency) ?? 0) + r.amount + r.refundableTax)
      count++
    } catch {
      // refused again, with its reason, when its turn comes
    }
  }
  const money = [...totals].map(([currency, amount]) => formatMoney(amount, currency, {grouping: true})).join(' + ') || formatMoney(0, 'usd')
  const failing = ids.length - count
  const rest = failing > 0 ? `; ${failing} of the ${ids.length} ids read cannot be refunded and will fail` : ''
  return `refund ${count} order${count === 1 ? '' : 's'} read from stdin in full, ${money} in all with tax${revokeBenefits ? ', revoking the benefits they granted' : ''}${rest}`
}
