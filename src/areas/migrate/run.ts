// One migration run, whatever the source: read the target's catalog (read-only, for the mapping), read
// the source, convert, and write catalog.yaml, customers.jsonl and precheck.json into --out together:
// each is written to a temporary file first, and all are renamed into place only once every one is
// whole, so a stopped or failed run leaves the folder as it was.
import {createWriteStream, mkdirSync, renameSync, rmSync, writeFileSync, type WriteStream} from 'node:fs'
import {join} from 'node:path'
import {once} from 'node:events'

import type {ApiClient} from '../../client/client.js'
import {fsError} from '../../client/fs-problem.js'
import {ownOrganization} from '../../client/resources/organizations.js'
import {ExitCode, TillError} from '../../client/till-error.js'
import {readCatalog, writeCatalog} from '../catalog-file/document.js'
import type {Environment} from '../catalog-file/plan.js'
import {readEnvironment} from '../catalog-file/read.js'
import {buildReport, convertCatalog, type Report} from './convert.js'
import {CustomerConverter, type ExternalIdMode} from './convert-others.js'
import {Findings} from './findings.js'
import type {Source, SourceDiscount, SourceProduct} from './model.js'

export interface MigrateOptions {
  source: Source
  out: string
  externalId: ExternalIdMode
  /** `--map SOURCE_ID=POLAR_ID`. */
  maps: Map<string, string>
  /** The target's client, for the read-only mapping reads; null: map onto nothing (`--no-target`). */
  target: (() => Promise<ApiClient>) | null
  /** `phase`, objects read so far in it. */
  progress?: (phase: string, n: number) => void
}

export const FILES = {catalog: 'catalog.yaml', customers: 'customers.jsonl', precheck: 'precheck.json'} as const

export async function runMigration(o: MigrateOptions): Promise<Report> {
  try {
    mkdirSync(o.out, {recursive: true})
  } catch (error) {
    throw fsError(error, 'create', o.out, ExitCode.usage, 'give --out a folder you can write to')
  }
  let target: Environment = {}
  let orgCurrency: string | null = null
  if (o.target) {
    const client = await o.target()
    o.progress?.('target catalog', 0)
    target = await readEnvironment(client)
    orgCurrency = (await ownOrganization(client)).default_presentment_currency?.toLowerCase() ?? null
  }
  const findings = new Findings()
  const products: SourceProduct[] = []
  for await (const p of o.source.products((n) => o.progress?.('products', n))) products.push(p)
  const discounts: SourceDiscount[] = []
  for await (const d of o.source.discounts((n) => o.progress?.('discounts', n))) discounts.push(d)
  // the catalog first: a name clash stops the run before the customers are read
  const converted = convertCatalog(o.source.name, {products, discounts}, target, {orgCurrency, maps: o.maps, digits: o.source.minorDigits}, findings)
  const text = writeCatalog(converted.catalog)
  const issues = readCatalog(text).issues
  if (issues.length > 0) {
    throw new TillError(
      `the converted catalog does not pass its own check (a bug in till migrate): ${issues
        .slice(0, 3)
        .map((i) => `line ${i.line}: ${i.path.join('.')}: ${i.message}`)
        .join('; ')}`,
      ExitCode.error,
    )
  }
  const temp = (name: string) => join(o.out, `.${name}.${process.pid}.part`)
  const temps = Object.values(FILES).map(temp)
  let stream: WriteStream | undefined
  try {
    const converter = new CustomerConverter(o.source.name, o.externalId, findings)
    stream = createWriteStream(temp(FILES.customers), {mode: 0o600})
    const failed = once(stream, 'error').then(([error]) => {
      throw error
    })
    let read = 0
    let moved = 0
    for await (const c of o.source.customers((n) => o.progress?.('customers', n))) {
      read++
      const line = converter.line(c)
      if (!line) continue
      moved++
      if (!stream.write(`${JSON.stringify(line)}\n`)) await Promise.race([once(stream, 'drain'), failed])
    }
    stream.end()
    await Promise.race([once(stream, 'finish'), failed])
    o.progress?.('subscriptions', 0)
    const leftovers = await o.source.leftovers()
    const report = buildReport({source: o.source.name, findings, converted, customers: {read, moved}, leftovers})
    writeFileSync(temp(FILES.catalog), text, {mode: 0o644})
    writeFileSync(temp(FILES.precheck), `${JSON.stringify(report, null, 2)}\n`, {mode: 0o644})
    for (const name of Object.values(FILES)) renameSync(temp(name), join(o.out, name))
    return report
  } catch (error) {
    // the stream opens its file when it gets to it: closed first, so that nothing is made after the removal
    if (stream && !stream.closed) {
      const closed = once(stream, 'close').catch(() => undefined)
      stream.destroy()
      await closed
    }
    for (const t of temps) rmSync(t, {force: true})
    if (error instanceof TillError) throw error
    if ((error as NodeJS.ErrnoException).code) throw fsError(error, 'write', o.out, ExitCode.usage, 'give --out a folder you can write to')
    throw error
  }
}
