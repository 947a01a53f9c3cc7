// Refunds (server/polar/refund/endpoints.py).
import {randomUUID} from 'node:crypto'

import type {ApiClient} from '../client.js'
import {MARKER_KEY} from '../settlement.js'
import type {PaginateOptions} from '../paginate.js'
import type {Refund, RefundCreate} from '../wire/index.js'
import {listItems} from './common.js'

/** Reasons the API accepts on create (`dispute_prevention` exists on refunds but is not accepted as input). */
export const REFUND_REASONS = ['customer_request', 'duplicate', 'fraudulent', 'service_disruption', 'satisfaction_guarantee', 'other'] as const
export type RefundReason = (typeof REFUND_REASONS)[number]

export interface RefundFilters {
  orderId?: string[]
  subscriptionId?: string[]
  customerId?: string[]
  externalCustomerId?: string[]
  succeeded?: boolean
  sorting?: string[]
}

export function listRefunds(client: ApiClient, f: RefundFilters, page: PaginateOptions): AsyncGenerator<Refund> {
  return listItems<Refund>(
    client,
    '/refunds/',
    {
      order_id: f.orderId,
      subscription_id: f.subscriptionId,
      customer_id: f.customerId,
      external_customer_id: f.externalCustomerId,
      succeeded: f.succeeded,
      sorting: f.sorting,
    },
    page,
  )
}

/** `amount` in minor units of the order's currency, pre-tax; at most the order's `refundable_amount`. */
export type {RefundCreate}

/**
 * Issues a refund (201). Its metadata carries a marker (`till_request`): when the answer is lost, the
 * client looks for a refund of the order with that marker before it sends the refund again
 * (../settlement.ts), so a refund is never made twice.
 */
export const createRefund = (client: ApiClient, body: RefundCreate) =>
  client.post<Refund>('/refunds/', {...body, metadata: {...body.metadata, [MARKER_KEY]: randomUUID()}})
