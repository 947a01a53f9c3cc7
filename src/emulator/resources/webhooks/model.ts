// Webhook endpoints, the events sent to them and their deliveries: stored records and their collections in the store.
import type {EnvData} from '../../core/model.js'
import type {ApiVersion} from '../../../client/version.js'
import type {WebhookFaults} from './faults.js'

declare module '../../core/model.js' {
  interface EnvData {
    webhook_endpoints: WebhookEndpointRecord[]
    webhook_events: WebhookEventRecord[]
    webhook_deliveries: WebhookDeliveryRecord[]
  }
}

/** The version of the payloads of an endpoint that names none: the service's current one (CURRENT_API_VERSION). */
export const DEFAULT_PAYLOAD_VERSION: ApiVersion = '2026-10'

/** This resource's part of a new (or older, saved before it existed) store. */
export const collections = (): Partial<EnvData> => ({
  webhook_endpoints: [] as WebhookEndpointRecord[],
  webhook_events: [] as WebhookEventRecord[],
  webhook_deliveries: [] as WebhookDeliveryRecord[],
})

export interface WebhookEndpointRecord {
  id: string
  created_at: string
  modified_at: string | null
  url: string
  name: string | null
  format: 'raw' | 'discord' | 'slack'
  secret: string
  events: string[]
  enabled: boolean
  /** The API version of the payloads sent to it (absent in stores saved before: the service's current one). */
  api_version?: ApiVersion
  /**
   * When the service generated its secret; null when the merchant gave it (absent in stores saved before:
   * their secrets predate the Standard Webhooks signing). Never answered, it decides how deliveries are signed.
   */
  secret_generated_at?: string | null
  /** Its own delivery faults (POST /_emulator/webhooks/endpoints/{id}/faults); never answered. */
  faults?: WebhookFaults
}

export interface WebhookEventRecord {
  id: string
  created_at: string
  modified_at: string | null
  type: string
  /** The API version of the payload: its endpoint's (absent in stores saved before: the current one). */
  api_version?: ApiVersion
  /** The exact body sent (and signed). */
  payload: string
  last_http_code: number | null
  succeeded: boolean | null
}

export interface WebhookDeliveryRecord {
  id: string
  created_at: string
  modified_at: string | null
  webhook_endpoint_id: string
  webhook_event_id: string
  attempt: number
  succeeded: boolean
  http_code: number | null
  response: string | null
}
