// Webhook endpoints (api-facts §3.1, §4.11). Note the paths have no trailing slash.
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import {listItems, seg, type Item} from './common.js'

export const WEBHOOK_FORMATS = ['raw', 'discord', 'slack'] as const

export interface EndpointCreate {
  url: string
  format: string
  events: string[]
  name?: string
}

export interface EndpointUpdate {
  url?: string
  format?: string
  events?: string[]
  name?: string
  enabled?: boolean
}

export const listEndpoints = (client: ApiClient, page: PaginateOptions): AsyncGenerator<Item> => listItems(client, '/webhooks/endpoints', {}, page)

export const getEndpoint = (client: ApiClient, id: string) => client.get<Item>(`/webhooks/endpoints/${seg(id)}`)

/** The answer holds the signing secret (`whsec_...`) in full. */
export const createEndpoint = (client: ApiClient, body: EndpointCreate) => client.post<Item>('/webhooks/endpoints', body)

export const updateEndpoint = (client: ApiClient, id: string, body: EndpointUpdate) => client.patch<Item>(`/webhooks/endpoints/${seg(id)}`, body)

export const deleteEndpoint = (client: ApiClient, id: string) => client.delete<null>(`/webhooks/endpoints/${seg(id)}`)
