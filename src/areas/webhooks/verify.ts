// Checking a webhook delivery's Standard Webhooks signature (api-facts §8.2): HMAC-SHA256 over
// `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the UTF-8 bytes of the whole `whsec_...` secret
// (the key Polar uses) or, as SDK 1.0.1 also accepts, the base64 decode of the part after `whsec_`.
import {timingSafeEqual} from 'node:crypto'
import {readFile} from 'node:fs/promises'

import {Webhook} from 'standardwebhooks'

import {fsReason} from '../../client/fs-problem.js'
import {usageError} from '../../client/till-error.js'

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

export type Verdict = {valid: true; type: string | null; webhookId: string; timestamp: number; key: KeyKind} | {valid: false; reason: string}

/** The signers to try: the whole secret's UTF-8 bytes first, then the base64 key after `whsec_` when it decodes. */
function signers(secret: string): Array<{key: KeyKind; webhook: Webhook}> {
  const list: Array<{key: KeyKind; webhook: Webhook}> = [{key: 'utf8', webhook: new Webhook(Buffer.from(secret, 'utf8').toString('base64'))}]
  try {
    list.push({key: 'base64', webhook: new Webhook(secret)})
  } catch {
    // the part after whsec_ is not base64: only the UTF-8 key applies
  }
  return list
}

const equal = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

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
    .map((s) => s.slice(3))
  if (given.length === 0) return {valid: false, reason: 'webhook-signature holds no v1 signature'}
  for (const {key, webhook} of signers(secret)) {
    const expected = webhook.sign(id, new Date(timestamp * 1000), body).slice(3)
    if (given.some((g) => equal(g, expected))) return {valid: true, type: eventType(body), webhookId: id, timestamp, key}
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
