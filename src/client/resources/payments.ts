// Payments (read-only) and disputes: what was charged for an order, and the chargebacks against it.
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import type {Dispute, Payment} from '../wire/index.js'
import {listItems, seg} from './common.js'

export const PAYMENT_STATUSES = ['pending', 'succeeded', 'failed'] as const
export const DISPUTE_STATUSES = ['prevented', 'early_warning', 'needs_response', 'under_review', 'lost', 'won'] as const

export interface PaymentFilters {
  orderId?: string[]
  checkoutId?: string[]
  customerId?: string[]
  customerEmail?: string[]
  status?: string[]
  method?: string[]
  sorting?: string[]
}

export function listPayments(client: ApiClient, f: PaymentFilters, page: PaginateOptions): AsyncGenerator<Payment> {
  return listItems<Payment>(
    client,
    '/payments/',
    {
      order_id: f.orderId,
      checkout_id: f.checkoutId,
      customer_id: f.customerId,
      customer_email: f.customerEmail,
      status: f.status,
      method: f.method,
      sorting: f.sorting,
    },
    page,
  )
}

export const getPayment = (client: ApiClient, id: string) => client.get<Payment>(`/payments/${seg(id)}`)

export interface DisputeFilters {
  orderId?: string[]
  status?: string[]
  sorting?: string[]
}

export function listDisputes(client: ApiClient, f: DisputeFilters, page: PaginateOptions): AsyncGenerator<Dispute> {
  return listItems<Dispute>(client, '/disputes/', {order_id: f.orderId, status: f.status, sorting: f.sorting}, page)
}

export const getDispute = (client: ApiClient, id: string) => client.get<Dispute>(`/disputes/${seg(id)}`)

/** Concedes the chargeback (the dispute is settled as lost; 409 when it is not awaiting a response). */
export const acceptDispute = (client: ApiClient, id: string) => client.post<Dispute>(`/disputes/${seg(id)}/accept`)
