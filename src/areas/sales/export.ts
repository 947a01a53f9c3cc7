// `till orders|subscriptions|customers export`: the service's CSV to stdout, or saved atomically to a file.
import {Flags} from '@oclif/core'

import type {ApiClient} from '../../client/client.js'
import {exportCsv, type ExportKind} from '../../client/resources/exports.js'
import {saveFile} from '../../client/resources/invoices.js'
import {checkWritableTarget} from '../../client/fs-problem.js'
import type {Context} from '../../cli/context.js'
import {csvForTerminal} from '../../cli/output/format.js'

export const exportFlags = {
  file: Flags.string({char: 'f', description: 'Save the CSV to this file (written whole or not at all) instead of stdout.'}),
}

export async function runExport(ctx: Context, client: ApiClient, kind: ExportKind, file: string | undefined, productId?: string[]): Promise<void> {
  if (file !== undefined) checkWritableTarget(file, '--file')
  const csv = await exportCsv(client, kind, productId)
  if (!file) {
    ctx.io.stdout.write(csvForTerminal(csv, ctx.io.stdoutIsTTY))
    return
  }
  await saveFile(file, Buffer.from(csv, 'utf8'))
  const rows = Math.max(0, csv.split('\r\n').filter((l) => l !== '').length - 1)
  ctx.note(`Saved ${rows} ${kind} to ${file}.`)
}
