// Webhook endpoints, the events sent to them and their deliveries: stored records -> the API's wire shapes (api-facts §4).
import {type View, orgId} from '../../core/present.js'
import type {WebhookEndpointRecord} from './model.js'

export function webhookEndpoint(v: View, w: WebhookEndpointRecord) {
  return {
    id: w.id,
    created_at: w.created_at,
    modified_at: w.modified_at,
    url: w.url,
    name: w.name,
    api_version: w.api_version ?? '2026-10',
    format: w.format,
    secret: w.secret,
    organization_id: orgId(v),
    events: w.events,
    enabled: w.enabled,
    // the emulator signs with the service's original scheme (HMAC keyed with the whole secret's UTF-8 bytes)
    uses_standard_webhook_signature: false,
  }
}
