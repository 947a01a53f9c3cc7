// Meters, their quantities, and customer meters (for the organization and in the customer portal).
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import {listItems, metadataQuery, seg, type Item} from './common.js'

export const FILTER_OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'like', 'not_like'] as const
export const AGGREGATIONS = ['count', 'sum', 'max', 'min', 'avg', 'unique'] as const
export const INTERVALS = ['hour', 'day', 'week', 'month', 'year'] as const
export type Interval = (typeof INTERVALS)[number]

export interface FilterClause {
  property: string
  operator: (typeof FILTER_OPERATORS)[number]
  value: string | number | boolean
}

export interface MeterFilter {
  conjunction: 'and' | 'or'
  clauses: Array<FilterClause | MeterFilter>
}

export type Aggregation = {func: 'count'} | {func: Exclude<(typeof AGGREGATIONS)[number], 'count'>; property: string}

export interface MeterCreate {
  name: string
  filter: MeterFilter
  aggregation: Aggregation
  unit?: 'scalar' | 'token' | 'custom'
  custom_label?: string
  custom_multiplier?: number
  metadata?: Record<string, string | number | boolean>
}

export interface MeterUpdate extends Partial<Omit<MeterCreate, 'custom_label' | 'custom_multiplier'>> {
  /** null clears it. */
  custom_label?: string | null
  custom_multiplier?: number | null
  is_archived?: boolean
}

export interface MeterFilters {
  query?: string
  archived?: boolean
  metadata?: string[]
  sorting?: string[]
}

export function listMeters(client: ApiClient, f: MeterFilters, page: PaginateOptions): AsyncGenerator<Item> {
  return listItems(client, '/meters/', {query: f.query, is_archived: f.archived, sorting: f.sorting, ...metadataQuery(f.metadata)}, page)
}

export const getMeter = (client: ApiClient, id: string) => client.get<Item>(`/meters/${seg(id)}`)
export const createMeter = (client: ApiClient, body: MeterCreate) => client.post<Item>('/meters/', body)
export const updateMeter = (client: ApiClient, id: string, body: MeterUpdate) => client.patch<Item>(`/meters/${seg(id)}`, body)

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

export interface MeterQuantities {
  quantities: Array<{timestamp: string; quantity: number}>
  total: number
}

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

export function listCustomerMeters(client: ApiClient, f: CustomerMeterFilters, page: PaginateOptions): AsyncGenerator<Item> {
  return listItems(client, '/customer-meters/', {customer_id: f.customerId, external_customer_id: f.externalCustomerId, meter_id: f.meterId, sorting: f.sorting}, page)
}

export const getCustomerMeter = (client: ApiClient, id: string) => client.get<Item>(`/customer-meters/${seg(id)}`)

export function listPortalMeters(client: ApiClient, f: {meterId?: string[]; query?: string; sorting?: string[]}, page: PaginateOptions): AsyncGenerator<Item> {
  return listItems(client, '/customer-portal/meters/', {meter_id: f.meterId, query: f.query, sorting: f.sorting}, page)
}

export const getPortalMeter = (client: ApiClient, id: string) => client.get<Item>(`/customer-portal/meters/${seg(id)}`)
