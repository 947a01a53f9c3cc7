// Files: the upload flow (declare the file and its parts, PUT each part to the URL the API returns,
// then mark it uploaded), with SHA-256 checksums checked on both sides; list, rename, delete.
import {createHash} from 'node:crypto'
import {open, stat} from 'node:fs/promises'
import {basename, extname} from 'node:path'

import type {ApiClient} from '../client.js'
import {ApiError, NetworkError} from '../errors.js'
import type {PaginateOptions} from '../paginate.js'
import {ExitCode, TillError} from '../till-error.js'
import type {FileCreate, FilePatch, FileRead, FileUpload, FileUploadCompleted} from '../wire/index.js'
import {listItems, seg} from './common.js'

export const FILE_SERVICES = ['downloadable', 'product_media', 'organization_avatar'] as const
export type FileService = (typeof FILE_SERVICES)[number]

/** 5 MiB: the storage's smallest part (but the last). */
export const DEFAULT_PART_SIZE = 5 * 1024 * 1024

export const listFiles = (client: ApiClient, ids: string[] | undefined, page: PaginateOptions): AsyncGenerator<FileRead> =>
  listItems<FileRead>(client, '/files/', {ids}, page)

export const updateFile = (client: ApiClient, id: string, body: FilePatch) => client.patch<FileRead>(`/files/${seg(id)}`, body)

export const deleteFile = (client: ApiClient, id: string) => client.delete<null>(`/files/${seg(id)}`)

const MIME: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.mp4': 'video/mp4',
  '.mp3': 'audio/mpeg',
  '.epub': 'application/epub+zip',
  '.gz': 'application/gzip',
  '.tar': 'application/x-tar',
}

/** A MIME type from the file name; `application/octet-stream` when unknown. */
export const mimeTypeOf = (path: string) => MIME[extname(path).toLowerCase()] ?? 'application/octet-stream'

interface Part {
  number: number
  chunk_start: number
  chunk_end: number
  checksum_sha256_base64: string
}

/** The parts of a `size`-byte file, each with the SHA-256 of its bytes, and the SHA-256 of the whole. */
async function planParts(path: string, size: number, partSize: number): Promise<{parts: Part[]; sha256: string}> {
  const whole = createHash('sha256')
  const parts: Part[] = []
  const handle = await open(path, 'r')
  try {
    for (let start = 0, number = 1; start < size; start += partSize, number++) {
      const length = Math.min(partSize, size - start)
      const data = Buffer.alloc(length)
      await handle.read(data, 0, length, start)
      whole.update(data)
      parts.push({number, chunk_start: start, chunk_end: start + length - 1, checksum_sha256_base64: createHash('sha256').update(data).digest('base64')})
    }
  } finally {
    await handle.close()
  }
  return {parts, sha256: whole.digest('base64')}
}

export interface UploadOptions {
  name?: string
  mimeType?: string
  service?: FileService
  version?: string
  partSize?: number
  /** Called after each part with the bytes sent so far and the total. */
  onProgress?: (sent: number, total: number) => void
}

/**
 * Uploads a file through the whole flow. Each part is PUT with its SHA-256 and the storage's answer is
 * checked against it; the completed file's checksum is checked against the local one. Returns the file.
 */
export async function uploadFile(client: ApiClient, path: string, options: UploadOptions = {}): Promise<FileRead> {
  const size = (await stat(path)).size
  // The service refuses an empty file (a part cannot end before it starts): said here, in words.
  if (size === 0) throw new TillError(`${path} is empty (0 bytes); the service takes files of at least one byte`, ExitCode.usage, 'give a file with content')
  const partSize = options.partSize ?? DEFAULT_PART_SIZE
  const {parts, sha256} = await planParts(path, size, partSize)
  const declared: FileCreate = {
    name: options.name ?? basename(path),
    mime_type: options.mimeType ?? mimeTypeOf(path),
    size,
    checksum_sha256_base64: sha256,
    upload: {parts},
    service: options.service ?? 'downloadable',
    version: options.version,
  }
  const created = await client.post<FileUpload>('/files/', declared)
  let completed: Completed[]
  try {
    completed = await uploadParts(client, path, created.upload.parts, parts, size, options.onProgress)
  } catch (error) {
    // The declared file never completes: it is deleted, so no half-uploaded file is left behind.
    await client.delete(`/files/${seg(created.id)}`).catch(() => undefined)
    throw error
  }
  const done: FileUploadCompleted = {id: created.upload.id, path: created.upload.path, parts: completed}
  let file: FileRead
  try {
    file = await client.post<FileRead>(`/files/${seg(created.id)}/uploaded`, done)
  } catch (error) {
    // The file exists: without its id, a second upload would make a duplicate.
    if (error instanceof NetworkError || (error instanceof ApiError && error.status >= 500)) {
      throw new TillError(
        `the answer to completing the upload of ${path} was lost (${error instanceof NetworkError ? error.message : `HTTP ${error.status}`}): it created file ${created.id}, which may or may not be complete`,
        ExitCode.unavailable,
        `check it before uploading again: till files list --id ${created.id} (is_uploaded); if it is not, delete it: till files delete ${created.id}`,
      )
    }
    throw error
  }
  if (typeof file.checksum_sha256_base64 === 'string' && file.checksum_sha256_base64 !== sha256) {
    throw new TillError(`the uploaded file ${file.id} does not have the checksum of ${path}`, ExitCode.error, 'delete it and upload again')
  }
  return file
}

type Completed = {number: number; checksum_etag: string; checksum_sha256_base64: string}

/** PUTs each part with the SHA-256 taken when the file was declared; the storage refuses bytes that differ. */
async function uploadParts(
  client: ApiClient,
  path: string,
  targets: FileUpload['upload']['parts'],
  parts: Part[],
  size: number,
  onProgress?: (sent: number, total: number) => void,
): Promise<Completed[]> {
  const completed: Completed[] = []
  const handle = await open(path, 'r')
  let sent = 0
  try {
    for (const part of targets) {
      const local = parts.find((p) => p.number === part.number)!
      const data = Buffer.alloc(local.chunk_end - local.chunk_start + 1)
      await handle.read(data, 0, data.length, local.chunk_start)
      const headers = await client
        .uploadPart(part.url, data, {'x-amz-checksum-sha256': local.checksum_sha256_base64, ...part.headers})
        .catch((error: unknown) => {
          if (error instanceof ApiError && error.code === 'BadDigest') {
            throw new TillError(
              `part ${part.number} of ${path} does not match the checksum taken before the upload: the file changed while it was being uploaded`,
              ExitCode.error,
              `upload it again once it no longer changes: till files upload ${path}`,
            )
          }
          throw error
        })
      const echoed = headers['x-amz-checksum-sha256']
      if (typeof echoed === 'string' && echoed !== local.checksum_sha256_base64) {
        throw new TillError(
          `part ${part.number} of ${path} arrived damaged: its checksum does not match`,
          ExitCode.error,
          `upload the file again: till files upload ${path}`,
        )
      }
      const etag = headers.etag
      if (typeof etag !== 'string') throw new TillError(`the storage did not confirm part ${part.number} of ${path} (no ETag)`, ExitCode.error)
      completed.push({number: part.number, checksum_etag: etag, checksum_sha256_base64: local.checksum_sha256_base64})
      sent += data.length
      onProgress?.(sent, size)
    }
  } finally {
    await handle.close()
  }
  return completed
}
