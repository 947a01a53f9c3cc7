// A command run on ids read from stdin (`-`): each id acted on within the rate budget, one result per id
// in input order (the records as the single command prints them, or with --envelope one record per
// input), a summary on stderr and the exit code of the worst outcome. A writing command keeps the job's
// journal (src/cli/journal.ts), so that a run that was stopped is resumed with --resume.
import {join} from 'node:path'

import type {ErrorContext} from '../client/errors.js'
import {ExitCode, TillError} from '../client/till-error.js'
import type {BulkResult, BulkStatus} from './bulk.js'
import type {Context} from './context.js'
import {Journal, progressText, resumeStopped, type Job} from './journal.js'
import type {OutputFlagValues, Printer} from './printer.js'
import type {Prompter} from './prompt.js'
import {escapeControls} from './settings.js'

export type BulkFlags = OutputFlagValues & {color?: boolean; envelope?: boolean; resume?: boolean; restart?: boolean}

/** What a bulk run needs of its command. */
export interface BulkHost {
  ctx: Context
  printer: Printer
  prompter: Prompter
  /** The command, `orders invoice generate`. */
  command: string
  /** Whether the command writes (it has --resume): its runs keep a journal. */
  journaled: boolean
  /** The arguments and flags as parsed: with the ids, they make the job. */
  parsed: {args: Record<string, unknown>; flags: Record<string, unknown>}
  /** What one id is (`order id`), and whether the ids are the id argument's (resource UUIDs). */
  idNoun: string
  idsFromArg: boolean
  /** Every id of stdin, read once (and kept for a preview already made). */
  stdinIds(): Promise<string[]>
  /** The ids already read for a preview, if any. */
  heldInput?: string[]
  writeList(resource: string, items: AsyncIterable<object>, flags: BulkFlags): Promise<void>
  errorContext(): ErrorContext
}

/** Takes the job's journal: a new one, or, after asking (or as --resume says), the one of a run that was stopped. */
async function openJournal(host: BulkHost, ids: string[], flags: BulkFlags): Promise<Journal> {
  const p = host.ctx.profile
  const job: Job = {command: host.command, profile: p.name, environment: p.environment, baseUrl: p.baseUrl, ...host.parsed, ids}
  const claim = Journal.claim(join(host.ctx.dataDir, 'journals'), job)
  try {
    if (claim.earlier && flags.restart) claim.earlier = undefined
    if (claim.earlier) {
      await resumeStopped((q, fallback) => host.prompter.ask(q, fallback), {
        resume: flags.resume,
        what: 'job',
        earlier: `till ${host.command} with this input`,
        progress: progressText(claim.earlier, ids.length),
        file: claim.file,
        doing: 'acting only on the ids it did not finish',
        rest: 'act only on the ids it did not finish',
      })
    }
    if (flags.resume && !claim.earlier) host.ctx.note(`No stopped run of till ${host.command} with this input to resume; starting it.`)
    return Journal.open(claim, job)
  } catch (error) {
    claim.lock.release()
    throw error
  }
}

/** Runs `action` for every id of stdin and prints each result with `printOne` (see BaseCommand.eachId). */
export async function runBulk<T extends object>(
  host: BulkHost,
  flags: BulkFlags,
  action: (id: string) => Promise<T>,
  printOne: (result: T) => Promise<void>,
): Promise<void> {
  const {heldIds, readIds, runEach} = await import('./bulk.js')
  let journal: Journal | undefined
  let ids: Iterable<string> | AsyncIterable<string>
  let total: number | undefined
  if (host.journaled) {
    // the whole input is read first: it names the job
    const all = await host.stdinIds()
    journal = await openJournal(host, all, flags)
    ids = all
    total = all.length
    if (journal.doneBefore > 0) host.ctx.note(`Resuming: ${journal.doneBefore} of ${all.length} ids were done by an earlier run of this job; they are skipped.`)
  } else ids = host.heldInput ?? heldIds(readIds(process.stdin))
  const counts: Record<BulkStatus, number> = {ok: 0, 'already done': 0, unknown: 0, failed: 0}
  let seen = 0
  // A bad input line ends the list (so what was done is printed), then is reported.
  let inputError: unknown
  const counted = async function* (results: AsyncIterable<BulkResult<T>>) {
    try {
      for await (const r of results) {
        counts[r.status]++
        seen++
        yield r
      }
    } catch (error) {
      inputError = error
    }
  }
  try {
    const results = counted(runEach(ids, action, host.errorContext(), 4, journal?.hooks<T>()))
    if (flags.envelope) await host.writeList('results', results, flags)
    else await printEach(host, results, printOne)
  } catch (error) {
    journal?.close()
    throw error
  }
  const tally = `${counts.ok} ok${counts['already done'] ? `, ${counts['already done']} already done` : ''}${counts.unknown ? `, ${counts.unknown} unknown` : ''}, ${counts.failed} failed`
  if (inputError !== undefined) {
    if (seen > 0) host.ctx.note(`${seen} ids acted on before the bad input: ${tally}.`)
    throw inputError
  }
  host.ctx.note(`${seen} ids: ${tally}.`)
  const settled = counts.unknown === 0 && counts.failed === 0 && (total === undefined || seen === total)
  if (journal && settled) journal.remove()
  else if (journal) {
    journal.close()
    if (seen === total)
      host.ctx.note(`Run the same command with --resume to act again only on the ${counts.unknown + counts.failed} ids not done (journal ${journal.file}).`)
  }
  if (counts.failed > 0) throw new TillError(`${counts.failed} of ${seen} failed (see the errors above)`, ExitCode.error)
  if (counts.unknown > 0)
    throw new TillError(`the outcome of ${counts.unknown} of ${seen} is unknown: their answers were lost (see above for how to check each)`, ExitCode.unknown)
}

/** Bulk results as the single command prints them; a failure is one line on stderr, in its place. */
async function printEach<T>(host: BulkHost, results: AsyncIterable<BulkResult<T>>, printOne: (result: T) => Promise<void>): Promise<void> {
  const printer = host.printer
  printer.startShared()
  try {
    for await (const r of results) {
      if (r.ok) {
        // an id an earlier run did has no record to print
        if (r.result !== undefined && r.result !== null) await printOne(r.result)
      } else {
        await printer.flushShared()
        const what = host.idsFromArg ? `${host.idNoun} ${r.id}` : r.id
        const message = r.error!.message.split('\n').join(' ')
        // A malformed id's own message already names it ("discount id "zzz": ..."): not twice.
        const line = message.startsWith(`${host.idNoun} "`) ? message : `${what}: ${message}`
        if (r.status === 'unknown')
          host.ctx.note(`Outcome unknown: ${escapeControls(line)}${r.error!.hint ? `; ${r.error!.hint}` : ''} (exit ${r.error!.exit_code})`)
        else host.ctx.note(`Error: ${escapeControls(line)} (exit ${r.error!.exit_code})`)
      }
      if (printer.closed) break
    }
  } finally {
    await printer.endShared()
  }
}
