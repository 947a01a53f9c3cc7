// Webhook endpoints (server/polar/webhook/endpoints.py). Note the paths have no trailing slash.
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import type {WebhookDelivery, WebhookEndpoint, WebhookEndpointCreate, WebhookEndpointUpdate} from '../wire/index.js'
import {listItems, seg} from './common.js'

export const WEBHOOK_FORMATS = ['raw', 'discord', 'slack'] as const

export type EndpointCreate = WebhookEndpointCreate

export type EndpointUpdate = WebhookEndpointUpdate

export const listEndpoints = (client: ApiClient, page: PaginateOptions): AsyncGenerator<WebhookEndpoint> =>
  listItems<WebhookEndpoint>(client, '/webhooks/endpoints', {}, page)

export const getEndpoint = (client: ApiClient, id: string) => client.get<WebhookEndpoint>(`/webhooks/endpoints/${seg(id)}`)

/** The answer holds the signing secret (`whsec_...`) in full. */
export const createEndpoint = (client: ApiClient, body: EndpointCreate) => client.post<WebhookEndpoint>('/webhooks/endpoints', body)

export const updateEndpoint = (client: ApiClient, id: string, body: EndpointUpdate) => client.patch<WebhookEndpoint>(`/webhooks/endpoints/${seg(id)}`, body)

export const deleteEndpoint = (client: ApiClient, id: string) => client.delete<null>(`/webhooks/endpoints/${seg(id)}`)

/** Replaces the endpoint's signing secret; the answer holds the new one in full (shown once). */
export const resetEndpointSecret = (client: ApiClient, id: string) => client.patch<WebhookEndpoint>(`/webhooks/endpoints/${seg(id)}/secret`)

export const HTTP_CODE_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const

export interface DeliveryFilters {
  endpointId?: string[]
  succeeded?: boolean
  eventType?: string[]
  httpCodeClass?: string
  /** ISO 8601 times: deliveries after `start` and before `end`. */
  start?: string
  end?: string
  query?: string
}

/** Delivery attempts, newest first, each with its event. */
export function listDeliveries(client: ApiClient, f: DeliveryFilters, page: PaginateOptions): AsyncGenerator<WebhookDelivery> {
  return listItems<WebhookDelivery>(
    client,
    '/webhooks/deliveries',
    {
      endpoint_id: f.endpointId,
      succeeded: f.succeeded,
      event_type: f.eventType,
      http_code_class: f.httpCodeClass,
      start_timestamp: f.start,
      end_timestamp: f.end,
      query: f.query,
    },
    page,
  )
}

/** Sends an event again to its endpoint (202, no body); the new attempt shows up in the deliveries. */
export const redeliverEvent = (client: ApiClient, eventId: string) => client.post<null>(`/webhooks/events/${seg(eventId)}/redeliver`)
