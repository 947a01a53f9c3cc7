// Files uploaded to the organization: stored records and their collections in the store.
import type {EnvData} from '../../core/model.js'

declare module '../../core/model.js' {
  interface EnvData {
    files: FileRecord[]
  }
}

/** This resource's part of a new (or older, saved before it existed) store. */
export const collections = (): Partial<EnvData> => ({files: [] as FileRecord[]})

export interface FilePart {
  number: number
  chunk_start: number
  chunk_end: number
  checksum_sha256_base64: string | null
}

export interface FileRecord {
  id: string
  created_at: string
  modified_at: string | null
  name: string
  path: string
  mime_type: string
  size: number
  service: 'downloadable' | 'product_media' | 'organization_avatar'
  version: string | null
  /** The checksum the creator declared for the whole file, if any. */
  checksum_sha256_base64: string | null
  checksum_sha256_hex: string | null
  checksum_etag: string | null
  is_uploaded: boolean
  last_modified_at: string | null
  upload_id: string
  parts: FilePart[]
  /** Parts received at their upload URLs: ETag and SHA-256 (base64) of the bytes. */
  received: Record<string, {etag: string; sha256: string}>
}
