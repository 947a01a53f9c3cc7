// The signing and retry timing of webhook events (Standard Webhooks, server/polar/webhook/service.py). Delivery and the
// records it keeps live with the webhooks resource; raising an event is `emit` in http.ts.
import {createHmac, randomBytes} from 'node:crypto'

import {Webhook} from 'standardwebhooks'

const MAX_BACKOFF_MS = 20 * 60 * 1000

/**
 * Since this moment the service signs an endpoint whose secret it generated the Standard Webhooks way;
 * one whose secret is older, or was given by the merchant, keeps the original way
 * (server/polar/webhook/constants.py WEBHOOK_STANDARD_SIGNATURE_CUTOFF, polarsource/polar #14117).
 */
export const STANDARD_SIGNATURE_CUTOFF = '2026-09-08T00:00:00.000Z'

/** True when a secret generated at `generatedAt` (null: given by the merchant) signs the Standard Webhooks way. */
export const usesStandardSignature = (generatedAt: string | null | undefined): boolean =>
  typeof generatedAt === 'string' && Date.parse(generatedAt) >= Date.parse(STANDARD_SIGNATURE_CUTOFF)

/** A secret as the service generates it now: `whsec_` and the base64 of 32 random bytes (WEBHOOK_SECRET_KEY_BYTES). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`

/**
 * The HMAC key of a secret: the Standard Webhooks way, the base64 decoding of what follows `whsec_`;
 * the original way, the UTF-8 bytes of the whole secret, `whsec_` included (server/polar/webhook/tasks.py).
 */
export const signingKey = (secret: string, standard: boolean): Buffer =>
  standard ? Buffer.from(secret.replace(/^whsec_/, ''), 'base64') : Buffer.from(secret, 'utf8')

/** The `webhook-signature` header: `v1,` and the base64 HMAC-SHA256 of `<id>.<unix seconds>.<body>`. */
export function signature(key: Buffer, id: string, sentAt: Date, body: string): string {
  const hmac = createHmac('sha256', key)
    .update(`${id}.${Math.floor(sentAt.getTime() / 1000)}.`)
    .update(body, 'utf8')
  return `v1,${hmac.digest('base64')}`
}

/**
 * Signs the original way: the HMAC key is the UTF-8 bytes of the whole secret, as the listen stream's
 * secret (the organization id) is used.
 */
export function signer(secret: string): Webhook {
  return new Webhook(Buffer.from(secret, 'utf8').toString('base64'))
}

export function backoffMs(attempt: number, base: number, random: () => number = Math.random): number {
  return Math.min(MAX_BACKOFF_MS, Math.round(base * 2 ** (attempt - 1) * (1 + random() * 0.25)))
}
