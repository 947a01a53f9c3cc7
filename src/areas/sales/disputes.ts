// Wording of dispute confirmations.
import type {Item} from '../../client/resources/common.js'
import {formatMoney} from '../../cli/input/money.js'

/** `accept dispute X and concede $12.00 (USD) of order Y to customer Z`. */
export function disputeSummary(d: Item): string {
  const currency = typeof d.currency === 'string' ? d.currency : 'usd'
  const total = Number(d.amount ?? 0) + Number(d.tax_amount ?? 0)
  const who = (d.customer as {email?: string} | null)?.email
  return `accept dispute ${d.id} and concede ${formatMoney(total, currency, {grouping: true})} (${currency.toUpperCase()}) of order ${String(d.order_id)}${who ? ` to ${who}` : ''}`
}
