// The emulator's payments are derived from its orders: one card payment per paid order with something to
// pay, and one saved card per paying customer. Their ids are derived from the order's or customer's, so
// they are the same on every read without being stored.
import {createHash} from '../../core/crypto.js'

import type {View} from '../../core/present.js'
import type {OrderRecord} from '../orders/model.js'
import {orderAmounts, orderStatus} from '../orders/amounts.js'

const PAID = new Set(['paid', 'refunded', 'partially_refunded'])

/** A stable UUID (version 4 layout) derived from `seed`. */
export function derivedUuid(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/** The payment id of an order. */
export const paymentIdOf = (orderId: string) => derivedUuid(`payment:${orderId}`)

/** The id of a customer's saved card. */
export const paymentMethodIdOf = (customerId: string) => derivedUuid(`payment-method:${customerId}`)

/** Whether `o` has a payment: paid (or refunded since) with a total above zero. */
export const hasPayment = (v: Pick<View, 'now'>, o: OrderRecord) => PAID.has(orderStatus(o, v.now)) && orderAmounts(o).total_amount > 0

/** The id of the customer's saved card (their default payment method), or null for a customer who never paid. */
export function savedCardOf(v: Pick<View, 'now' | 'store'>, customerId: string): string | null {
  const paid = v.store.all('orders').some((o) => o.customer_id === customerId && hasPayment(v, o))
  return paid ? paymentMethodIdOf(customerId) : null
}
