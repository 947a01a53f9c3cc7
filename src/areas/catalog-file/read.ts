// Reading both sides of a plan: the catalog file (checked, every problem with its line) and the
// environment (every object of every kind, archived ones included).
import {existsSync, readFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

import type {ApiClient} from '../../client/client.js'
import type {Item} from '../../client/resources/common.js'
import {ExitCode, TillError, usageError} from '../../client/till-error.js'
import {issueLines, readCatalog, readingCatalog, type Catalog, type LocatedIssue, type ReadResult} from './document.js'
import {KINDS} from './kinds/index.js'
import type {Environment} from './plan.js'

/** The file's text; a missing or unreadable file is a usage error naming it. */
export function catalogText(file: string): string {
  if (file.trim() === '') throw usageError('the catalog file name is empty', 'give the path of a catalog file, or - for stdin')
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message
    throw usageError(`cannot read the catalog file ${file}: ${why}`, 'write one with: till catalog pull --out catalog.yaml')
  }
}

/** The checked catalog, or an error listing every problem with its line (exit 2). */
export function loadCatalog(file: string, text = catalogText(file)): Catalog {
  const {catalog, issues} = readCatalog(text)
  if (issues.length > 0) throw invalidCatalog(file, issues)
  return catalog
}

/**
 * Files from this size on are read without holding the command's thread: parsing YAML is synchronous,
 * seconds for tens of thousands of products, and a command's thread busy with it cannot stop at Ctrl-C or
 * SIGTERM. A file in the layout pull writes is read an entry at a time on the command's thread, letting
 * signals in every few milliseconds; any other is read whole in a worker thread. (A worker's copy of the text, its
 * catalog and the copy of that catalog sent back would make most of a plan's peak.)
 */
export const OFF_THREAD_CHARS = 256 * 1024

/** How long the command's thread reads before it lets other work in. */
const TURN_MS = 20

/** As loadCatalog, a large file read without holding the command's thread, which stays free to stop at a signal. */
export async function loadCatalogAsync(file: string, debug?: (line: string) => void): Promise<Catalog> {
  const text = catalogText(file)
  const large = text.length >= OFF_THREAD_CHARS
  const reading = large ? readingCatalog(text) : undefined
  if (large) debug?.(`reading the catalog file (${text.length} characters) ${reading ? 'an entry at a time, in turns' : 'in a worker thread'}`)
  const result = reading ? await inTurns(reading) : large ? await readCatalogOffThread(text) : readCatalog(text)
  if (result.issues.length > 0) throw invalidCatalog(file, result.issues)
  return result.catalog
}

/** Runs `steps` to their end, letting other work in (timers, signals) every TURN_MS. */
async function inTurns<T>(steps: Generator<void, T>): Promise<T> {
  let turn = performance.now()
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
    if (performance.now() - turn < TURN_MS) continue
    await new Promise((resolve) => setImmediate(resolve))
    turn = performance.now()
  }
}

/** The worker's script: beside this module (dist/areas/catalog-file), or there from the bundle (dist/bundle/cli). */
function workerScript(): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url))
  return [join(here, 'read-worker.js'), join(here, '..', '..', 'areas', 'catalog-file', 'read-worker.js')].find((path) => existsSync(path))
}

/** readCatalog of a whole file in a worker thread; in this one when the worker's script is not found. */
async function readCatalogOffThread(text: string): Promise<ReadResult> {
  const script = workerScript()
  if (!script) return readCatalog(text, {whole: true})
  const {Worker} = await import('node:worker_threads')
  return new Promise((resolve, reject) => {
    // a small young generation: reading makes garbage an entry at a time, which V8 would otherwise let
    // grow to tens of MiB before collecting it
    const worker = new Worker(script, {workerData: text, resourceLimits: {maxYoungGenerationSizeMb: 2}})
    worker.once('message', (result: ReadResult) => {
      resolve(result)
      void worker.terminate()
    })
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`the catalog reader stopped (exit ${code}) before it answered`)))
  })
}

export function invalidCatalog(file: string, issues: LocatedIssue[]): TillError {
  const lines = issueLines(file === '-' ? 'stdin' : file, issues)
  const error = new TillError(`the catalog file has ${issues.length === 1 ? 'a problem' : `${issues.length} problems`}:\n${lines.join('\n')}`, ExitCode.usage)
  return error
}

/** Every object of every kind in the environment, one kind after the other. */
export async function readEnvironment(client: ApiClient): Promise<Environment> {
  const env: Environment = {}
  for (const kind of KINDS) {
    const items: Item[] = []
    for await (const item of kind.list(client)) items.push(item)
    env[kind.section] = items
  }
  return env
}
