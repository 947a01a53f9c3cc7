// The two ways the service signs a webhook delivery, as till names them. Both are HMAC-SHA256 over
// `<webhook-id>.<webhook-timestamp>.<body>`; they differ in the key (server/polar/webhook/tasks.py):
// - standard: the base64 decoding of the secret after `whsec_` (Standard Webhooks), for an endpoint whose
//   secret the service generated on or after 2026-09-08 (polarsource/polar #14117);
// - legacy: the UTF-8 bytes of the whole secret, `whsec_` included, for an older secret or one the merchant
//   gave (polarsource/polar #14400).
import type {Row} from '../../cli/output/columns.js'

export type Signing = 'standard' | 'legacy'

/** The signing way an endpoint says it uses (`uses_standard_webhook_signature`); '' when it says nothing. */
export function signingOf(endpoint: Row): Signing | '' {
  const standard = endpoint.uses_standard_webhook_signature
  return standard === true ? 'standard' : standard === false ? 'legacy' : ''
}

/** Each way in words, as `webhooks verify` says which one matched. */
export const SIGNING_WORDS: Record<Signing, string> = {
  standard: 'the standard way (Standard Webhooks: the key is the base64 decoding of the secret after whsec_)',
  legacy: 'the legacy way (the key is the UTF-8 bytes of the whole secret)',
}

/** How a receiver of `endpoint`'s deliveries checks them with a stock Standard Webhooks library. */
export function receiverHint(endpoint: Row): string {
  const standard = 'It signs the standard way: a stock Standard Webhooks library verifies its deliveries given the secret as it is.'
  const reset = 'or reset the secret to move it to the standard way'
  const legacy = `It signs the legacy way: give a stock Standard Webhooks library the base64 of the whole secret (${reset}).`
  return signingOf(endpoint) === 'legacy' ? legacy : standard
}
