// Checking a webhook delivery's signature as the service's SDK 1.0.1 does (validateEvent): HMAC-SHA256 over
// `<webhook-id>.<webhook-timestamp>.` and the body's bytes exactly as received, with each key the service may
// sign with, the legacy one first (the UTF-8 bytes of the whole `whsec_...` secret), then the Standard
// Webhooks one (the base64 decoding of the part after `whsec_`); any space-separated `v1,<base64>` of
// `webhook-signature` may match (signing.ts says which endpoints use which).
import {createHmac, timingSafeEqual} from 'node:crypto'
import {readFile} from 'node:fs/promises'

import {fsReason} from '../../client/fs-problem.js'
import {usageError} from '../../client/till-error.js'
import type {Signing} from './signing.js'

/** Seconds a delivery's timestamp may be from now, either way. */
export const TOLERANCE_SECONDS = 300

export interface WebhookHeaders {
  id?: string
  timestamp?: string
  signature?: string
}

const HEADER_KEYS: Record<string, keyof WebhookHeaders> = {'webhook-id': 'id', 'webhook-timestamp': 'timestamp', 'webhook-signature': 'signature'}

/**
 * The three webhook headers from `name: value` lines (a request dump, `curl -D`; other lines are
 * ignored, names in any case) or from a JSON object of header names.
 */
export function parseHeaders(text: string): WebhookHeaders {
  const found: WebhookHeaders = {}
  const set = (name: string, value: unknown) => {
    const key = HEADER_KEYS[name.trim().toLowerCase()]
    if (key && value !== undefined && value !== null) found[key] = String(value).trim()
  }
  if (text.trim().startsWith('{')) {
    try {
      for (const [name, value] of Object.entries(JSON.parse(text) as Record<string, unknown>)) set(name, value)
      return found
    } catch {
      // not JSON after all: read it as lines
    }
  }
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':')
    if (colon > 0) set(line.slice(0, colon), line.slice(colon + 1))
  }
  return found
}

export type KeyKind = 'utf8' | 'base64'

/** What a genuine delivery is: its type, id and time, and the key that matched. */
interface Genuine {
  valid: true
  type: string | null
  webhookId: string
  timestamp: number
  key: KeyKind
  signing: Signing
}

export type Verdict = Genuine | {valid: false; reason: string}

/** The bytes base64 `text` holds (padding optional, as atob reads it); undefined when it is not base64. */
function base64Bytes(text: string): Buffer | undefined {
  const bare = text.replace(/[\t\n\f\r ]/g, '')
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(bare) || bare.replace(/=+$/, '').length % 4 === 1) return undefined
  return Buffer.from(bare, 'base64')
}

/**
 * The keys to try, in the SDK's order: the whole secret's UTF-8 bytes, then the base64 decoding of what
 * follows `whsec_` when it decodes to something else that is not empty.
 */
function keys(secret: string): Array<{key: KeyKind; signing: Signing; bytes: Buffer}> {
  const utf8 = Buffer.from(secret, 'utf8')
  const list: Array<{key: KeyKind; signing: Signing; bytes: Buffer}> = [{key: 'utf8', signing: 'legacy', bytes: utf8}]
  const decoded = base64Bytes(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret)
  const other = decoded && decoded.length > 0 && !decoded.equals(utf8)
  if (other) list.push({key: 'base64', signing: 'standard', bytes: decoded})
  return list
}

/** The HMAC-SHA256 of `<id>.<timestamp>.` and then the body's bytes, untouched (never decoded as text). */
function mac(key: Buffer, id: string, timestamp: string, body: Buffer): Buffer {
  const hmac = createHmac('sha256', key).update(`${id}.${timestamp}.`, 'utf8')
  return hmac.update(body).digest()
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z')

function eventType(body: Buffer): string | null {
  try {
    const type = (JSON.parse(body.toString('utf8')) as {type?: unknown}).type
    return typeof type === 'string' ? type : null
  } catch {
    return null
  }
}

/** Checks one delivery: headers present, timestamp within tolerance of `nowSeconds` (unless ignored), signature. */
export function verifyDelivery(body: Buffer, headers: WebhookHeaders, secret: string, opts: {nowSeconds: number; ignoreTimestamp?: boolean}): Verdict {
  const missing = (['id', 'timestamp', 'signature'] as const).filter((k) => !headers[k])
  if (missing.length > 0) return {valid: false, reason: `missing header${missing.length > 1 ? 's' : ''} ${missing.map((k) => `webhook-${k}`).join(', ')}`}
  const {id, signature} = headers as Required<WebhookHeaders>
  if (!/^\d{1,12}$/.test(headers.timestamp!)) return {valid: false, reason: `webhook-timestamp "${headers.timestamp}" is not a unix time in seconds`}
  const timestamp = Number(headers.timestamp)
  if (!opts.ignoreTimestamp) {
    const age = opts.nowSeconds - timestamp
    if (age > TOLERANCE_SECONDS)
      return {valid: false, reason: `timestamp too old: sent ${iso(timestamp)}, ${age} s ago (at most ${TOLERANCE_SECONDS} s is accepted)`}
    if (-age > TOLERANCE_SECONDS)
      return {valid: false, reason: `timestamp too new: ${iso(timestamp)} is ${-age} s ahead of now (at most ${TOLERANCE_SECONDS} s is accepted)`}
  }
  const given = signature
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => base64Bytes(s.slice(3)))
  if (given.length === 0) return {valid: false, reason: 'webhook-signature holds no v1 signature'}
  for (const {key, signing, bytes} of keys(secret)) {
    const expected = mac(bytes, id, String(timestamp), body)
    if (given.some((g) => g !== undefined && g.length === expected.length && timingSafeEqual(g, expected)))
      return {valid: true, type: eventType(body), webhookId: id, timestamp, key, signing}
  }
  return {valid: false, reason: 'bad signature: it does not match the body with this secret (wrong secret, or the body was changed)'}
}

// ---- the inputs of `webhooks verify` ----

export interface VerifyInputFlags {
  body: string
  headers?: string
  id?: string
  timestamp?: string
  signature?: string
  'secret-stdin'?: boolean
}

async function readStdinBytes(): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

async function readSource(source: string, what: string): Promise<Buffer> {
  try {
    return source === '-' ? await readStdinBytes() : await readFile(source)
  } catch (error) {
    throw usageError(`cannot read the ${what} from ${source}: ${fsReason(error)}`)
  }
}

/**
 * The body (bytes as received), the headers (`--headers` file, overridden by --id, --timestamp,
 * --signature) and the secret (stdin with --secret-stdin, else TILL_WEBHOOK_SECRET, else `askSecret`
 * on a terminal). Stdin can feed one of them.
 */
export async function readVerifyInputs(
  flags: VerifyInputFlags,
  env: NodeJS.ProcessEnv,
  askSecret?: () => Promise<string>,
): Promise<{body: Buffer; headers: WebhookHeaders; secret: string}> {
  const fromStdin = [flags.body === '-' && '--body -', flags.headers === '-' && '--headers -', flags['secret-stdin'] && '--secret-stdin'].filter(Boolean)
  if (fromStdin.length > 1) throw usageError(`only one input can come from stdin, not ${fromStdin.join(' and ')}`)
  let secret = env.TILL_WEBHOOK_SECRET
  if (flags['secret-stdin']) secret = (await readStdinBytes()).toString('utf8').trim()
  else if (!secret && askSecret) secret = (await askSecret()).trim()
  if (!secret) {
    throw usageError(
      flags['secret-stdin'] ? '--secret-stdin was given but stdin was empty' : 'the webhook secret is needed',
      'set TILL_WEBHOOK_SECRET, or pipe it in with --secret-stdin (secrets are never taken as arguments)',
    )
  }
  const body = await readSource(flags.body, 'body')
  const headers = flags.headers ? parseHeaders((await readSource(flags.headers, 'headers')).toString('utf8')) : {}
  for (const key of ['id', 'timestamp', 'signature'] as const) if (flags[key] !== undefined) headers[key] = flags[key]
  return {body, headers, secret}
}

/** `--now` as unix seconds: digits are seconds, anything else a date; absent, the clock. */
export function nowSeconds(now: string | undefined): number {
  if (now === undefined) return Math.floor(Date.now() / 1000)
  const ms = /^\d+$/.test(now) ? Number(now) * 1000 : Date.parse(now)
  if (Number.isNaN(ms)) throw usageError(`--now "${now}" is neither unix seconds nor a date`)
  return Math.floor(ms / 1000)
}
