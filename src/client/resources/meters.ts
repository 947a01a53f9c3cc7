// Meters, their quantities, and customer meters (for the organization and in the customer portal).
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import type {CustomerCustomerMeter, CustomerMeter, Meter, MeterCreate, MeterQuantities, MeterUpdate, Schema} from '../wire/index.js'
import {listItems, metadataQuery, seg} from './common.js'

export const FILTER_OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'like', 'not_like'] as const
export const AGGREGATIONS = ['count', 'sum', 'max', 'min', 'avg', 'unique'] as const
export const INTERVALS = ['hour', 'day', 'week', 'month', 'year'] as const
export type Interval = (typeof INTERVALS)[number]

export type FilterClause = Schema<'FilterClause'>

/** A filter of events: clauses, or filters in turn, joined by `and` or `or`. */
export type MeterFilter = Schema<'Filter'>

export type Aggregation = MeterCreate['aggregation']

export type {MeterCreate, MeterUpdate}

export interface MeterFilters {
  query?: string
  archived?: boolean
  metadata?: string[]
  sorting?: string[]
}

export function listMeters(client: ApiClient, f: MeterFilters, page: PaginateOptions): AsyncGenerator<Meter> {
  return listItems<Meter>(client, '/meters/', {query: f.query, is_archived: f.archived, sorting: f.sorting, ...metadataQuery(f.metadata)}, page)
}

export const getMeter = (client: ApiClient, id: string) => client.get<Meter>(`/meters/${seg(id)}`)
export const createMeter = (client: ApiClient, body: MeterCreate) => client.post<Meter>('/meters/', body)
export const updateMeter = (client: ApiClient, id: string, body: MeterUpdate) => client.patch<Meter>(`/meters/${seg(id)}`, body)

export interface QuantitiesQuery {
  start: string
  end: string
  interval: Interval
  /** IANA time zone the periods follow (the service's default is UTC). */
  timezone?: string
  /** Aggregate per customer first, then combine the customers' quantities with this function. */
  customerAggregation?: string
  customerId?: string[]
  externalCustomerId?: string[]
  metadata?: string[]
}

export type {MeterQuantities}

export function meterQuantities(client: ApiClient, id: string, q: QuantitiesQuery): Promise<MeterQuantities> {
  return client.get<MeterQuantities>(`/meters/${seg(id)}/quantities`, {
    query: {
      start_timestamp: q.start,
      end_timestamp: q.end,
      interval: q.interval,
      timezone: q.timezone,
      customer_aggregation_function: q.customerAggregation,
      customer_id: q.customerId,
      external_customer_id: q.externalCustomerId,
      ...metadataQuery(q.metadata),
    },
  })
}

export interface CustomerMeterFilters {
  customerId?: string[]
  externalCustomerId?: string[]
  meterId?: string[]
  sorting?: string[]
}

export function listCustomerMeters(client: ApiClient, f: CustomerMeterFilters, page: PaginateOptions): AsyncGenerator<CustomerMeter> {
  return listItems<CustomerMeter>(
    client,
    '/customer-meters/',
    {customer_id: f.customerId, external_customer_id: f.externalCustomerId, meter_id: f.meterId, sorting: f.sorting},
    page,
  )
}

export const getCustomerMeter = (client: ApiClient, id: string) => client.get<CustomerMeter>(`/customer-meters/${seg(id)}`)

export function listPortalMeters(
  client: ApiClient,
  f: {meterId?: string[]; query?: string; sorting?: string[]},
  page: PaginateOptions,
): AsyncGenerator<CustomerCustomerMeter> {
  return listItems<CustomerCustomerMeter>(client, '/customer-portal/meters/', {meter_id: f.meterId, query: f.query, sorting: f.sorting}, page)
}

export const getPortalMeter = (client: ApiClient, id: string) => client.get<CustomerCustomerMeter>(`/customer-portal/meters/${seg(id)}`)
