// One migration run, whatever the source: read the target's catalog (read-only, for the mapping), read
// the source, convert, and write catalog.yaml, customers.jsonl and precheck.json into --out, all or
// nothing: each is written to a temporary file first (the customers' one opened before the source is read,
// so an unwritable folder is said at once), and all are renamed into place only once every one is whole;
// a rename that fails puts back the files already replaced. What a writer killed on the way left (its
// temporary files) is removed by the next run.
import {once} from 'node:events'
import {
  copyFileSync,
  createWriteStream,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  type WriteStream,
} from 'node:fs'
import {basename, join} from 'node:path'

import type {ApiClient} from '../../client/client.js'
import {fsError, isFsError} from '../../client/fs-problem.js'
import {ownOrganization} from '../../client/resources/organizations.js'
import {settled, trackTemp} from '../../client/temp-files.js'
import {ExitCode, TillError} from '../../client/till-error.js'
import {readCatalog} from '../catalog-file/document.js'
import {writeCatalog} from '../catalog-file/writer.js'
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

const OUT_HINT = 'give --out a folder you can write to'

export async function runMigration(o: MigrateOptions): Promise<Report> {
  try {
    mkdirSync(o.out, {recursive: true})
  } catch (error) {
    throw fsError(error, 'create', o.out, ExitCode.usage, OUT_HINT)
  }
  removeDeadWritersFiles(o.out)
  const output = new Output(o.out)
  try {
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
    const converter = new CustomerConverter(o.source.name, o.externalId, findings)
    let read = 0
    let moved = 0
    for await (const c of o.source.customers((n) => o.progress?.('customers', n))) {
      read++
      const line = converter.line(c)
      if (!line) continue
      moved++
      await output.customer(`${JSON.stringify(line)}\n`)
    }
    await output.endCustomers()
    o.progress?.('subscriptions', 0)
    const leftovers = await o.source.leftovers()
    const report = buildReport({source: o.source.name, findings, converted, customers: {read, moved}, leftovers})
    output.commit(text, `${JSON.stringify(report, null, 2)}\n`)
    return report
  } catch (error) {
    await output.discard()
    if (error instanceof TillError) throw error
    if (isFsError(error)) throw fsError(error, 'write', shownTarget(o.out, error), ExitCode.usage, OUT_HINT)
    throw error
  }
}

/** `.customers.jsonl.<pid>.part`: a file being written; `.<name>.<pid>.previous`: a replaced one kept until all three are in place. */
const temp = (out: string, name: string, kind: 'part' | 'previous' = 'part') => join(out, `.${name}.${process.pid}.${kind}`)
const OURS = /^\.(catalog\.yaml|customers\.jsonl|precheck\.json)\.(\d+)\.(part|previous)$/

/** The file a system error was about, as the user knows it: --out's file for one of our temporary files, else --out. */
function shownTarget(out: string, error: NodeJS.ErrnoException): string {
  const name = error.path ? OURS.exec(basename(error.path))?.[1] : undefined
  return name ? join(out, name) : out
}

/** Removes the temporary files of runs into `out` whose process is gone (killed before it could clean up). */
function removeDeadWritersFiles(out: string): void {
  let names: string[]
  try {
    names = readdirSync(out)
  } catch (error) {
    throw fsError(error, 'read', out, ExitCode.usage, OUT_HINT)
  }
  for (const name of names) {
    const pid = Number(OURS.exec(name)?.[2])
    if (!pid || pid === process.pid || alive(pid)) continue
    rmSync(join(out, name), {force: true})
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH'
  }
}

/** The three files of a run, written to temporary files and put in place together. */
class Output {
  private readonly stream: WriteStream
  private readonly failed: Promise<never>
  private readonly temps: string[]

  constructor(private readonly out: string) {
    this.temps = Object.values(FILES).map((name) => temp(out, name))
    const path = temp(out, FILES.customers)
    let fd: number
    try {
      fd = openSync(path, 'w', 0o600)
    } catch (error) {
      throw unwritable(out, error)
    }
    for (const t of this.temps) trackTemp(t)
    this.stream = createWriteStream(path, {fd})
    this.failed = once(this.stream, 'error').then(([error]) => {
      throw error
    })
    // a failure is seen by the next write or the end; unseen (the run failed first), it is not a crash
    this.failed.catch(() => undefined)
  }

  async customer(line: string): Promise<void> {
    if (!this.stream.write(line)) await Promise.race([once(this.stream, 'drain'), this.failed])
  }

  async endCustomers(): Promise<void> {
    this.stream.end()
    await Promise.race([once(this.stream, 'finish'), this.failed])
  }

  /**
   * Writes the catalog and the report, then renames the three into place. A rename that fails (a folder
   * where a file goes) puts back every file already replaced, from a link to it made before.
   */
  commit(catalog: string, precheck: string): void {
    writeFileSync(temp(this.out, FILES.catalog), catalog, {mode: 0o644})
    writeFileSync(temp(this.out, FILES.precheck), precheck, {mode: 0o644})
    const placed: Array<{file: string; previous: string | null}> = []
    const previous: string[] = []
    try {
      for (const name of Object.values(FILES)) {
        const file = join(this.out, name)
        let kept: string | null = null
        const info = lstatOrNull(file)
        if (info?.isDirectory()) throw fsError({code: 'EISDIR'}, 'write', file, ExitCode.usage, 'move that folder away, or give --out another folder')
        if (info) {
          kept = temp(this.out, name, 'previous')
          previous.push(kept)
          keepCopy(file, kept)
        }
        try {
          renameSync(temp(this.out, name), file)
        } catch (error) {
          throw fsError(error, 'write', file, ExitCode.usage, OUT_HINT)
        }
        placed.push({file, previous: kept})
      }
    } catch (error) {
      for (const {file, previous: kept} of placed.reverse()) {
        if (kept) renameSync(kept, file)
        else rmSync(file, {force: true})
      }
      throw error
    } finally {
      for (const p of previous) rmSync(p, {force: true})
    }
    for (const t of this.temps) settled(t)
  }

  /** Removes the temporary files (the stream closed first, so that nothing is made after the removal). */
  async discard(): Promise<void> {
    if (!this.stream.closed) {
      const closed = once(this.stream, 'close').catch(() => undefined)
      this.stream.destroy()
      await closed
    }
    for (const t of this.temps) {
      rmSync(t, {force: true})
      settled(t)
    }
  }
}

/** "cannot write OUT: why", for a folder where no file can be made. */
function unwritable(out: string, error: unknown): TillError {
  // a folder that exists but takes no new file with "no such file" (/proc, some read-only mounts)
  if ((error as NodeJS.ErrnoException).code === 'ENOENT' && isFolder(out)) {
    return new TillError(`cannot write ${out}: the folder takes no new files (a read-only or special file system)`, ExitCode.usage, OUT_HINT)
  }
  return fsError(error, 'write', out, ExitCode.usage, OUT_HINT)
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

function lstatOrNull(path: string) {
  try {
    return lstatSync(path)
  } catch {
    return null
  }
}

/** `to` keeps what `from` holds now: a second name for the same file, or a copy where links are not made. */
function keepCopy(from: string, to: string): void {
  rmSync(to, {force: true})
  try {
    linkSync(from, to)
  } catch {
    copyFileSync(from, to)
  }
}
