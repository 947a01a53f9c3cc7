// A seeded webhook endpoint made before the service's switch to Standard Webhooks signing, as a real
// organization has one: its secret is of the older form (`whsec_` and 43 characters) and it signs the
// original way (the HMAC key is the UTF-8 bytes of the whole secret). It is disabled, so the emulator sends
// nothing to a URL nobody listens at; point it at a receiver and enable it to see such a delivery.
import {STANDARD_SIGNATURE_CUTOFF} from '../../core/events.js'
import {token, uuid, type Random} from '../../core/ids.js'
import type {EnvData} from '../../core/model.js'
import {DAY, iso} from '../../core/seeding.js'

export const SEEDED_ENDPOINT_NAME = 'Fulfilment (made before 2026-09-08)'

export function seedWebhookEndpoints(data: EnvData, random: Random, start: number): void {
  const made = Math.min(start + 30 * DAY, Date.parse(STANDARD_SIGNATURE_CUTOFF) - 30 * DAY)
  data.webhook_endpoints.push({
    id: uuid(random),
    created_at: iso(made),
    modified_at: iso(made),
    url: 'https://fulfilment.acme.example/hooks/polar',
    name: SEEDED_ENDPOINT_NAME,
    format: 'raw',
    secret: token('whsec_', random),
    events: ['order.paid', 'order.refunded', 'subscription.canceled'],
    enabled: false,
    // the version that was current when it was made
    api_version: '2026-04',
    secret_generated_at: iso(made),
  })
}
