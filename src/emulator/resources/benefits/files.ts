// A downloadables benefit's files (GET /benefits/{id}/files; server/polar/benefit/strategies/downloadables):
// the files the benefit hands out and is not archiving, with their download counts. Any other type of
// benefit has none: the service answers 404, as for an unknown benefit.
import {notFound} from '../../core/errors.js'
import type {Ctx, Router} from '../../core/http.js'
import type {View} from '../../core/present.js'
import {finder, listRoute, pathId} from '../../core/toolkit.js'
import type {FileRecord} from '../files/model.js'
import {file} from '../files/present.js'

const findBenefit = finder('benefits', {live: (b) => !b.is_deleted})

function activeFiles(ctx: Ctx): FileRecord[] {
  const benefit = findBenefit(ctx, pathId(ctx))
  if (benefit.type !== 'downloadables') throw notFound()
  const {files = [], archived = {}} = benefit.properties as {files?: string[]; archived?: Record<string, boolean>}
  return files.filter((id) => !archived[id]).flatMap((id) => ctx.store.get('files', id) ?? [])
}

// the emulator serves no customer downloads, so none is counted
const present = (v: View, f: FileRecord) => ({...file(v, f), service: 'downloadable', downloaders: 0, downloads: 0})

export function registerFiles(r: Router): void {
  listRoute(r, 'benefits:files', activeFiles, {present, sorts: {}, defaultSort: ['created_at']})
}
