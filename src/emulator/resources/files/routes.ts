// Files (server/polar/file): the upload flow. POST /files/ declares the file and its parts and answers
// with a presigned URL per part; the bytes go to those URLs (served here, without a token, like storage
// URLs); POST /files/{id}/uploaded completes it with each part's ETag. Then list, rename, delete.
import {createHash} from '../../core/crypto.js'

import {z} from '../../core/zod.js'

import {HttpError, ruleValidation} from '../../core/errors.js'
import {noContent, ok, type Ctx, type Reply, type Router} from '../../core/http.js'
import {uuid} from '../../core/ids.js'
import {finder, listRoute, organizationScope, pathId} from '../../core/toolkit.js'
import {parse} from '../../core/validate.js'
import type {FileRecord} from './model.js'
import {file as presentFile, fileUpload, signPart} from './present.js'

const part = z.object({number: z.int().gte(1), chunk_start: z.int().gte(0), chunk_end: z.int().gte(0), checksum_sha256_base64: z.string().nullish()})
const fileCreate = z.object({
  organization_id: z.uuid().nullish(),
  name: z.string().min(1),
  mime_type: z.string().regex(/^\S+\/\S+$/),
  size: z.int().gte(0),
  checksum_sha256_base64: z.string().nullish(),
  upload: z.object({parts: z.array(part).min(1)}),
  service: z.enum(['downloadable', 'product_media', 'organization_avatar']),
  version: z.string().nullish(),
})
const fileUploaded = z.object({
  id: z.string(),
  path: z.string(),
  parts: z.array(z.object({number: z.int(), checksum_etag: z.string(), checksum_sha256_base64: z.string().nullable()})).min(1),
})
const filePatch = z.object({name: z.string().min(1).nullish(), version: z.string().nullish()})

const findFile = finder('files')

/** A storage error, as the object store answers (XML is not needed by clients; the status and code are). */
const storageError = (status: number, code: string, message: string) => new HttpError(status, {error: code, detail: message})

/** PUT of one part's bytes at its presigned URL: checked against the declared range and checksum. */
function receivePart(ctx: Ctx): Reply {
  const f = ctx.store.get('files', ctx.params.id ?? '')
  const number = Number(ctx.params.part)
  const declared = f?.parts.find((p) => p.number === number)
  const expires = Number(ctx.query.get('expires'))
  if (!f || !declared || ctx.query.get('upload_id') !== f.upload_id) throw storageError(404, 'NoSuchUpload', 'The specified upload does not exist.')
  if (ctx.query.get('signature') !== signPart(ctx, f, number, expires))
    throw storageError(403, 'SignatureDoesNotMatch', 'The request signature does not match.')
  if (!(expires > ctx.now)) throw storageError(403, 'AccessDenied', 'Request has expired.')
  const data = ctx.rawBody
  const expected = declared.chunk_end - declared.chunk_start + 1
  if (data?.length !== expected) throw storageError(400, 'IncompleteBody', `Part ${number} must be ${expected} bytes, got ${data?.length ?? 0}.`)
  const {sha256} = data
  if (declared.checksum_sha256_base64 && declared.checksum_sha256_base64 !== sha256) {
    throw storageError(400, 'BadDigest', 'The SHA256 you specified did not match the calculated checksum.')
  }
  const etag = `"${data.md5}"`
  ctx.store.write(() => {
    findFile(ctx, f.id).received[String(number)] = {etag, sha256}
  })
  return {status: 200, headers: {etag, 'x-amz-checksum-sha256': sha256}, raw: {contentType: 'text/plain', data: ''}}
}

export function register(r: Router): void {
  listRoute(r, 'files:list', (ctx: Ctx) => ctx.store.all('files').filter((f) => f.is_uploaded), {
    present: presentFile,
    // `ids` is a list of UUIDs: a malformed one is a 422, as the service's validation gives.
    filters: {organization_id: organizationScope, ids: {type: 'uuid', match: (f: FileRecord, ids) => ids.includes(f.id)}},
    sorts: {},
    defaultSort: ['-created_at'],
  })

  r.post('/files/', 'organization', (ctx) => {
    const input = parse(fileCreate, ctx.body)
    // the parts must cover the file exactly, in order
    let next = 0
    input.upload.parts.forEach((p, i) => {
      if (p.number !== i + 1 || p.chunk_start !== next || p.chunk_end < p.chunk_start)
        throw ruleValidation(['body', 'upload', 'parts', i], 'Parts must be numbered from 1 and cover the file in order.', p)
      next = p.chunk_end + 1
    })
    if (next !== input.size) throw ruleValidation(['body', 'upload', 'parts'], 'Parts must cover the whole file size.', input.size)
    const id = uuid()
    const file = ctx.store.write(() =>
      ctx.store.insert('files', {
        id,
        created_at: new Date(ctx.now).toISOString(),
        modified_at: null,
        name: input.name,
        path: `${ctx.store.data.organization.id}/${id}/${input.name}`,
        mime_type: input.mime_type,
        size: input.size,
        service: input.service,
        version: input.version ?? null,
        checksum_sha256_base64: input.checksum_sha256_base64 ?? null,
        checksum_sha256_hex: input.checksum_sha256_base64 ? Buffer.from(input.checksum_sha256_base64, 'base64').toString('hex') : null,
        checksum_etag: null,
        is_uploaded: false,
        last_modified_at: null,
        upload_id: uuid(),
        parts: input.upload.parts.map((p) => ({
          number: p.number,
          chunk_start: p.chunk_start,
          chunk_end: p.chunk_end,
          checksum_sha256_base64: p.checksum_sha256_base64 ?? null,
        })),
        received: {},
      }),
    )
    return ok(fileUpload(ctx.view, file), 201)
  })

  r.post('/files/:id/uploaded', 'organization', (ctx) => {
    const id = pathId(ctx)
    const input = parse(fileUploaded, ctx.body)
    const file = ctx.store.write(() => {
      const f = findFile(ctx, id)
      if (input.id !== f.upload_id || input.path !== f.path) throw ruleValidation(['body', 'id'], 'Upload does not match this file.', input.id)
      if (input.parts.length !== f.parts.length) throw ruleValidation(['body', 'parts'], 'Every part must be completed.', input.parts.length)
      input.parts.forEach((p, i) => {
        const got = f.received[String(p.number)]
        if (!got || got.etag !== p.checksum_etag)
          throw ruleValidation(['body', 'parts', i, 'checksum_etag'], 'Part was not uploaded, or its ETag does not match.', p.checksum_etag)
      })
      const md5s = f.parts.map((p) => Buffer.from(f.received[String(p.number)]!.etag.replaceAll('"', ''), 'hex'))
      f.checksum_etag = `${createHash('md5').update(Buffer.concat(md5s)).digest('hex')}-${f.parts.length}`
      f.is_uploaded = true
      f.last_modified_at = new Date(ctx.now).toISOString()
      f.modified_at = f.last_modified_at
      return f
    })
    return ok(presentFile(ctx.view, file))
  })

  r.patch('/files/:id', 'organization', (ctx) => {
    const id = pathId(ctx)
    const input = parse(filePatch, ctx.body)
    const file = ctx.store.write(() => {
      const f = findFile(ctx, id)
      if (input.name) f.name = input.name
      if (input.version !== undefined) f.version = input.version
      f.modified_at = new Date(ctx.now).toISOString()
      return f
    })
    return ok(presentFile(ctx.view, file))
  })

  r.delete('/files/:id', 'organization', (ctx) => {
    const id = pathId(ctx)
    ctx.store.write(() => {
      findFile(ctx, id)
      ctx.store.remove('files', id)
    })
    return noContent()
  })

  r.addAbsolute('PUT', '/uploads/:id/:part', 'none', receivePart, {rawBody: true})
}
