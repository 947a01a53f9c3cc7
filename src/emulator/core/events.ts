// The signing and retry timing of webhook events (Standard Webhooks, api-facts §8). Delivery and the
// records it keeps live with the webhooks resource; raising an event is `emit` in http.ts.
import {Webhook} from 'standardwebhooks'

const MAX_BACKOFF_MS = 20 * 60 * 1000

/**
 * Signs like the service: the HMAC key is the UTF-8 bytes of the whole secret, `whsec_` included,
 * so a stock Standard Webhooks verifier must be given base64(secret) (api-facts §8.2).
 */
export function signer(secret: string): Webhook {
  return new Webhook(Buffer.from(secret, 'utf8').toString('base64'))
}

export function backoffMs(attempt: number, base: number, random: () => number = Math.random): number {
  return Math.min(MAX_BACKOFF_MS, Math.round(base * 2 ** (attempt - 1) * (1 + random() * 0.25)))
}
