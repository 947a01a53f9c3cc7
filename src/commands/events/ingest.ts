import {createHash} from 'node:crypto'
import {mkdirSync, realpathSync, rmSync} from 'node:fs'
import {dirname, join} from 'node:path'

import {Args, Flags, type Interfaces} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {Checkpoint, rangeText, settledText} from '../../areas/usage/checkpoint.js'
import {Ingester, MAX_BATCH_BYTES} from '../../areas/usage/ingest.js'
import {progressView, summaryLine} from '../../areas/usage/progress.js'
import {formatOf, openInput, readCsv, readJsonLines} from '../../areas/usage/read-events.js'
import {checkReadableFile} from '../../client/fs-problem.js'
import {resumeStopped} from '../../cli/journal.js'
import {ExitCode, TillError, usageError} from '../../client/till-error.js'
import {terminalLines} from '../../cli/output/format.js'

type IngestFlags = Interfaces.InferredFlags<(typeof EventsIngest)['flags']>

export default class EventsIngest extends BaseCommand {
  static override summary = 'Ingest usage events from JSON lines or CSV, in batches, at full rate.'
  static override description =
    `Each JSON line is one event as the API takes it ({"name", "external_customer_id" or "customer_id", "timestamp", "external_id", "metadata"}). CSV needs a header: name,external_customer_id,timestamp,external_id,metadata.KEY,... (numbers and true/false in metadata columns keep their type). --name and --external-customer fill what a line leaves out.

Events go in batches (--batch-size, under the 10 MiB body limit), several at once (--concurrency) within the rate budget; the input streams, so memory stays bounded. A batch whose events all have an external_id is safe to send again after a dropped connection or a server error (the service skips ids it has seen); a batch without them that may have reached the service is never re-sent: till stops and names the lines whose fate is unknown.

A bad line stops the run before anything after it is sent (its line number is shown, and the lines stored before it); --skip-invalid skips it, and events the service refuses, instead, sends the rest, and exits 11 naming the lines it skipped.

A file's ingest keeps a journal of the settled lines in till's data folder, as every bulk write does: a run stopped by a failure, Ctrl-C or a kill is carried on by the same command with --resume (asked on a terminal; without one it exits 13), --restart starts over, and the journal of a finished run is removed. --checkpoint FILE keeps that record in a file of yours instead, kept after the run (a cron job over a growing file sends only the new lines), and takes stdin too; two runs cannot use one checkpoint or journal at once (the second exits 12).`
  static override enableJsonFlag = true
  static override examples = [
    {description: 'Ingest a file of JSON lines', command: '<%= config.bin %> <%= command.id %> usage.jsonl'},
    {
      description: 'From a pipeline, naming every event and its customer',
      command: 'my-exporter | <%= config.bin %> <%= command.id %> - --name api.call --external-customer usr_00001',
    },
    {
      description: 'A large CSV export that can be resumed, counts as JSON',
      command: '<%= config.bin %> <%= command.id %> usage.csv --checkpoint usage.ckpt --skip-invalid --json',
    },
  ]

  static override args = {
    file: Args.string({description: 'File of events (JSON lines or CSV), or - for stdin.', default: '-'}),
  }

  static override flags = {
    format: Flags.option({options: ['jsonl', 'csv'] as const, description: 'Input format (default: by file extension, else JSON lines).'})(),
    name: Flags.string({description: 'Event name for lines without one.'}),
    'external-customer': Flags.string({description: 'External customer id for lines naming no customer.'}),
    'batch-size': Flags.integer({description: 'Events per request.', default: 1000, min: 1, max: 10_000}),
    concurrency: Flags.integer({description: 'Requests in flight at once.', default: 4, min: 1, max: 16}),
    checkpoint: Flags.string({description: 'File recording the settled input lines; a re-run with it continues where the last one stopped.'}),
    'skip-invalid': Flags.boolean({description: 'Skip bad lines and events the service refuses (each reported on stderr) instead of stopping.'}),
    'resend-unknown': Flags.boolean({
      description: 'With --checkpoint or --resume: send again the lines whose fate the last run could not know.',
      exclusive: ['skip-unknown'],
    }),
    'skip-unknown': Flags.boolean({description: 'With --checkpoint or --resume: count the lines whose fate the last run could not know as done.'}),
    resume: Flags.boolean({
      description: 'Carry on with a stopped run of the same ingest of this file, sending only the lines it did not settle.',
      exclusive: ['restart', 'checkpoint'],
    }),
    restart: Flags.boolean({
      description: 'Start over, forgetting what a stopped run of the same ingest of this file did.',
      exclusive: ['resume', 'checkpoint'],
    }),
    progress: Flags.boolean({description: 'Progress bar on stderr (default: on a terminal).', allowNo: true}),
  }

  protected override exitOnInterrupt = false

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(EventsIngest)
    const io = this.ctx.io
    if (args.file === '-' && io.stdinIsTTY)
      throw usageError('no input: give a FILE of events or pipe them into stdin', 'till events ingest usage.jsonl, or: my-exporter | till events ingest -')
    const size = args.file === '-' ? null : checkReadableFile(args.file, 'give the path of a JSON lines or CSV file, or - for stdin', {streams: true})
    if ((flags.resume || flags.restart) && args.file === '-')
      throw usageError(`--${flags.resume ? 'resume' : 'restart'} needs the events in a file: stdin cannot be read again`, 'give the file, or --checkpoint FILE')
    const journal = flags.checkpoint === undefined && args.file !== '-' ? this.journalFile(args.file, flags) : undefined
    if (journal) mkdirSync(dirname(journal), {recursive: true, mode: 0o700})
    const checkpoint = Checkpoint.open(flags.checkpoint ?? journal ?? null, args.file)
    let finished = false
    try {
      if (journal) await this.claimJournal(checkpoint, journal, flags)
      finished = await this.ingest(args.file, flags, checkpoint, size, journal)
    } finally {
      checkpoint.close()
      // a finished run's journal is removed, and one that settled nothing; a stopped one's is kept for --resume
      if (journal && (finished || !checkpoint.resumed)) rmSync(journal, {force: true})
    }
  }

  /**
   * The journal of this ingest in till's data folder: the same file (by its path, so that one fixed after a
   * bad line, or grown since, is carried on), format, defaults and profile give the same journal, so the
   * same command run again finds it (and asks, or says --resume or --restart).
   */
  private journalFile(file: string, flags: IngestFlags): string {
    const p = this.ctx.profile
    const job = [p.name, p.environment, p.baseUrl, realpathSync(file), flags.format, flags.name, flags['external-customer']]
    return join(this.ctx.dataDir, 'journals', `events-ingest-${createHash('sha256').update(JSON.stringify(job)).digest('hex').slice(0, 24)}.json`)
  }

  /** A stopped run's journal: carried on after asking (or as --resume says), or forgotten with --restart. */
  private async claimJournal(checkpoint: Checkpoint, journal: string, flags: IngestFlags): Promise<void> {
    if (!checkpoint.resumed) {
      if (flags.resume) this.ctx.note('No stopped run of this ingest to resume; starting it.')
      return
    }
    const progress = `${settledText(checkpoint.data) ?? 'no line'} settled`
    if (flags.restart) checkpoint.reset()
    else {
      await resumeStopped((q, fallback) => this.prompter.ask(q, fallback), {
        resume: flags.resume,
        what: 'ingest',
        earlier: 'till events ingest with this file',
        progress,
        file: journal,
        doing: 'sending only the lines it did not settle',
        rest: 'send only the lines it did not settle',
      })
    }
    if (checkpoint.resumed) this.ctx.note(`Resuming: ${progress} by an earlier run; they are skipped.`)
  }

  /** Sends the events; resolves true when every line is settled (nothing left for a re-run to do). */
  private async ingest(file: string, flags: IngestFlags, checkpoint: Checkpoint, size: number | null, journal?: string): Promise<boolean> {
    const record = flags.checkpoint ?? journal
    const again = flags.checkpoint ? `the same command again sends only the rest` : 'the same command with --resume sends only the rest'
    const io = this.ctx.io
    this.settleUnknown(checkpoint, flags)
    const client = await this.ctx.client()
    const format = flags.format ?? formatOf(file) ?? 'jsonl'
    const defaults = {name: flags.name, externalCustomer: flags['external-customer']}
    const input = openInput(file)
    const records = format === 'csv' ? readCsv(input, defaults) : readJsonLines(input, defaults)

    const abort = new AbortController()
    const view = await progressView(io.stderr, flags.progress ?? io.stderrIsTTY, size)
    // waits (the rate budget, Retry-After) are said on the bar rather than on lines under it
    this.ctx.waitShown = (ms, why) => view.waiting(ms, why)
    const onInterrupt = () => {
      if (abort.signal.aborted) process.exit(ExitCode.interrupted)
      abort.abort()
      // the bar is cleared first: redrawn, it would write over this line
      view.stop()
      this.ctx.waitShown = undefined
      io.stderr.write('Interrupted: sending no more; finishing what is sent (Ctrl-C again to quit)…\n')
    }
    process.on('SIGINT', onInterrupt)
    const started = Date.now()
    const ingester = new Ingester(client, checkpoint, {
      batchSize: flags['batch-size'],
      batchBytes: MAX_BATCH_BYTES,
      concurrency: flags.concurrency,
      skipInvalid: flags['skip-invalid'],
      onProgress: (p) => view.update(p),
      warn: (line) => {
        view.stop()
        // a line may quote the input (an event's name): shown escaped
        io.stderr.write(`${terminalLines(line)}\n`)
      },
      signal: abort.signal,
    })
    let summary: Awaited<ReturnType<Ingester['run']>>
    try {
      summary = await ingester.run(records)
    } catch (error) {
      view.stop()
      // What went before the failure is stored: a re-run of the whole input would send it again.
      const stored = settledText(checkpoint.data)
      if (stored)
        this.ctx.note(
          `Stored before the error: ${stored}${record ? ` (recorded in ${record}: ${again}).` : '; a re-run of the whole input would send them again (next time pass --checkpoint FILE).'}`,
        )
      throw error
    } finally {
      view.stop()
      this.ctx.waitShown = undefined
      process.off('SIGINT', onInterrupt)
      if (input !== process.stdin) input.destroy()
    }
    this.ctx.note(summaryLine(summary, Date.now() - started))
    if (this.jsonEnabled()) {
      const {read, inserted, duplicates, rejected, requests} = summary
      io.stdout.write(`${JSON.stringify({read, inserted, duplicates, rejected, requests})}\n`)
    }
    if (summary.interrupted) {
      throw new TillError(
        `interrupted after line ${checkpoint.data.through}`,
        ExitCode.interrupted,
        flags.checkpoint
          ? `run the same command again to continue from the checkpoint ${flags.checkpoint}`
          : journal
            ? 'run the same command with --resume to continue where it stopped'
            : 'next time pass --checkpoint FILE to be able to continue',
      )
    }
    const rejected = summary.rejectedLines
    if (rejected.length > 0) {
      const named = rejected.length > 10 ? `${rejected.slice(0, 10).join(', ')} and ${rejected.length - 10} more` : rejected.join(', ')
      throw new TillError(
        `${rejected.length} ${rejected.length === 1 ? 'line was' : 'lines were'} rejected (${rejected.length === 1 ? 'line' : 'lines'} ${named}); everything else was sent`,
        ExitCode.rejected,
        'fix the lines named above and send those alone',
      )
    }
    return true
  }

  /** Lines a previous run could not know the fate of: the user decides, or the run does not start. */
  private settleUnknown(checkpoint: Checkpoint, flags: {'resend-unknown': boolean; 'skip-unknown': boolean; checkpoint?: string}): void {
    const unknown = checkpoint.data.unknown
    if (unknown.length === 0) return
    if (flags['resend-unknown']) checkpoint.data.unknown = []
    else if (flags['skip-unknown']) {
      for (const range of unknown) checkpoint.settle(range, {})
      checkpoint.data.unknown = []
    } else {
      throw usageError(
        `${unknown.map(rangeText).join(', ')} of this input may already be stored: the last run lost the service's answer`,
        'check with `till events list`, then pass --resend-unknown to send them again or --skip-unknown to leave them out',
      )
    }
  }
}
