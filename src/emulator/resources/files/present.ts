// Files: stored records -> the API's wire shapes (server/polar/file/schemas.py); a new file also carries
// its upload: a presigned URL per part, served by the emulator itself (routes.ts).
import {createHmac} from '../../core/crypto.js'

import {type View, orgId} from '../../core/present.js'
import type {FileRecord} from './model.js'
import type {Presented} from '../../core/present.js'

const UPLOAD_TTL_MS = 3_600_000

/** A size as the service words it (`size_readable`): bytes, then KB, MB... with one decimal. */
function readable(size: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB']
  let value = size
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`
}

/** The signature of one part's upload URL, valid until `expires`. */
export function signPart(v: Pick<View, 'store'>, f: FileRecord, number: number, expires: number): string {
  return createHmac('sha256', v.store.data.tokens[0]!.token).update(`${f.id}.${f.upload_id}.${number}.${expires}`).digest('hex').slice(0, 32)
}

export function file(v: View, f: FileRecord): Presented<'FileRead'> {
  return {
    id: f.id,
    organization_id: orgId(v),
    name: f.name,
    path: f.path,
    mime_type: f.mime_type,
    size: f.size,
    storage_version: null,
    checksum_etag: f.checksum_etag,
    checksum_sha256_base64: f.checksum_sha256_base64,
    checksum_sha256_hex: f.checksum_sha256_hex,
    last_modified_at: f.last_modified_at,
    version: f.version,
    service: f.service,
    is_uploaded: f.is_uploaded,
    created_at: f.created_at,
    // set by the service's malware scan; nothing here is ever flagged
    flagged_malicious_at: null,
    size_readable: readable(f.size),
  }
}

/** A file just declared, with where to upload each part. */
export function fileUpload(v: View, f: FileRecord) {
  const expires = v.now + UPLOAD_TTL_MS
  return {
    ...file(v, f),
    upload: {
      id: f.upload_id,
      path: f.path,
      parts: f.parts.map((p) => {
        const url = new URL(`${v.origin}/uploads/${f.id}/${p.number}`)
        url.searchParams.set('upload_id', f.upload_id)
        url.searchParams.set('expires', String(expires))
        url.searchParams.set('signature', signPart(v, f, p.number, expires))
        return {
          ...p,
          url: url.toString(),
          expires_at: new Date(expires).toISOString(),
          headers: p.checksum_sha256_base64 ? {'x-amz-checksum-sha256': p.checksum_sha256_base64} : {},
        }
      }),
    },
  }
}
