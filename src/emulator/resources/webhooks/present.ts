// Webhook endpoints, their events and deliveries: stored records -> wire shapes (server/polar/webhook/schemas.py).
import {usesStandardSignature} from '../../core/events.js'
import {type View, orgId} from '../../core/present.js'
import {DEFAULT_PAYLOAD_VERSION, type WebhookEndpointRecord} from './model.js'

export function webhookEndpoint(v: View, w: WebhookEndpointRecord) {
  return {
    id: w.id,
    created_at: w.created_at,
    modified_at: w.modified_at,
    url: w.url,
    name: w.name,
    api_version: w.api_version ?? DEFAULT_PAYLOAD_VERSION,
    format: w.format,
    secret: w.secret,
    organization_id: orgId(v),
    events: w.events,
    enabled: w.enabled,
    // computed from the hidden secret_generated_at (server/polar/webhook/schemas.py WebhookEndpoint)
    uses_standard_webhook_signature: usesStandardSignature(w.secret_generated_at),
  }
}
