// Request bodies as the emulator reads them: a JSON body whole, up to 10 MiB; the bytes of an upload part
// (routes registered with `rawBody`) only as they pass, into their length and digests, up to the 5 GiB
// an object store takes in one part, so that a large part costs no memory.
import {createHash} from './crypto.js'
import type {IncomingMessage} from 'node:http'

import {HttpError} from './errors.js'
import {parseJsonBody} from './validate.js'

export const MAX_BODY = 10 * 1024 * 1024
/** The most one part of a multipart upload may hold (S3's limit). */
export const MAX_PART = 5 * 1024 * 1024 * 1024

/** An upload part as received: its size, SHA-256 (base64) and MD5 (hex, its ETag). */
export interface BodyDigest {
  length: number
  sha256: string
  md5: string
}

/** Reads from `req` until it ends, handing each chunk to `take`; more than `limit` bytes is `tooLarge`. */
function consume(req: IncomingMessage, limit: number, tooLarge: () => HttpError, take: (chunk: Buffer) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    let size = 0
    req.on('data', (chunk: Buffer) => {
      if (size > limit) return
      size += chunk.length
      if (size > limit) {
        reject(tooLarge())
        req.resume()
        return
      }
      take(chunk)
    })
    req.on('end', () => resolve(size))
    req.on('error', reject)
  })
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  await consume(
    req,
    MAX_BODY,
    () => new HttpError(413, {error: 'RequestBodyTooLarge', detail: `Request body exceeded the maximum allowed size of ${MAX_BODY} bytes.`}),
    (chunk) => chunks.push(chunk),
  )
  return Buffer.concat(chunks)
}

export async function digestBody(req: IncomingMessage): Promise<BodyDigest> {
  const sha256 = createHash('sha256')
  const md5 = createHash('md5')
  const tooLarge = () => new HttpError(400, {error: 'EntityTooLarge', detail: 'Your proposed upload exceeds the maximum allowed size.'})
  const length = await consume(req, MAX_PART, tooLarge, (chunk) => {
    sha256.update(chunk)
    md5.update(chunk)
  })
  return {length, sha256: sha256.digest('base64'), md5: md5.digest('hex')}
}

/**
 * The body as the service's framework takes it: JSON when the content type is absent, application/json
 * or `+json`; otherwise the raw text, which a body schema then refuses as not an object (422 at ["body"]).
 */
export function requestBody(raw: string, contentType: string | undefined): unknown {
  if (contentType === undefined) return parseJsonBody(raw)
  const [type = '', subtype = ''] = (contentType.split(';')[0] ?? '').trim().toLowerCase().split('/')
  if (type === 'application' && (subtype === 'json' || subtype.endsWith('+json'))) return parseJsonBody(raw)
  return raw === '' ? undefined : raw
}
