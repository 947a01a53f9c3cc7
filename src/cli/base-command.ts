// The one base of till's commands: global flags, the lazily built context, and every error turned
// into one clear message and a documented exit code (README "Exit codes").
import {Command, type Interfaces} from '@oclif/core'

import {toTillError, type ErrorContext} from '../client/errors.js'
import {errorContextOf} from './error-context.js'
import type {PaginateOptions} from '../client/paginate.js'
import {Context} from './context.js'
import {ExitCode, TillError, usageError} from '../client/till-error.js'
import type {ResourceColumns} from './output/columns.js'
import type {BulkFlags} from './bulk-run.js'
import {type CreatedOptions, Printer, type OutputFlagValues} from './printer.js'
import {globalFlags} from './flags.js'
import {tokenAfterDashes} from './argv.js'
import {terminalLines, wrapWords} from './output/format.js'
import {flushed} from './output/sink.js'
import {DeclinedError, Prompter} from './prompt.js'
import {checkUuid} from '../client/ids.js'
import {type IdContext, resolveIds} from './shown-ids.js'
import {isFsError, systemFileError} from '../client/fs-problem.js'
import {checkArguments, checkStdinDash} from './id-args.js'
import {redact} from '../client/redact.js'
import {oclifParseError} from './parse-error.js'
import {type CommandShape, jsonFieldsToColumns} from './json-fields.js'
import {checkSettings, dropEmptySettings, escapeControls, isInternalError, isYes, REPORT_URL} from './settings.js'

export type BaseFlags<T extends typeof Command> = Interfaces.InferredFlags<T['baseFlags'] & T['flags']>

export {bulkFlags, bulkWriteFlags, dryRunFlag, globalFlags, outputFlags, pageFlags} from './flags.js'
import {overPage} from './flags.js'
export type {OutputFlagValues} from './printer.js'

export abstract class BaseCommand extends Command {
  static override baseFlags = globalFlags

  private context?: Context
  private globals?: {profile?: string; debug: boolean; maxWait: number; noInput: boolean}
  private prompts?: Prompter

  protected get debugging(): boolean {
    return this.globals?.debug ?? (this.argv.includes('--debug') || isYes(process.env.TILL_DEBUG))
  }

  /** Commands that shut down on SIGINT themselves (servers) set this to false. */
  protected exitOnInterrupt = true

  /** Set by a command whose argument is an opaque token the service made, which may begin with '-' (see tokenAfterDashes). */
  static tokenArgument = false

  override async init(): Promise<void> {
    // oclif fills a missing argument from piped stdin when some arrives within ~10 ms (so it depends on
    // timing): `cat events.jsonl | till events ingest` read the events as a file name. No till command takes
    // an argument that way; those that read stdin say so (`-`).
    for (const arg of Object.values(this.ctor.args ?? {})) (arg as {ignoreStdin?: boolean}).ignoreStdin = true
    dropEmptySettings(process.env)
    checkSettings(process.env)
    await super.init()
    // gh's `--json id,status`: the fields go to --columns, which JSON output keeps alone
    if (this.ctor.enableJsonFlag) {
      const shape = {flags: {...this.ctor.baseFlags, ...this.ctor.flags}, args: Object.keys(this.ctor.args ?? {}).length, loose: this.ctor.strict === false}
      this.argv = jsonFieldsToColumns(this.argv, shape as CommandShape)
    }
    // Test-only hook: an internal error, to show how one is reported.
    if (process.env.TILL_TEST_FAULT === 'internal') (undefined as unknown as {limit: number}).limit.toFixed()
    // Exiting from the handler (not dying of the signal) runs the exit hooks that remove temp files.
    if (this.exitOnInterrupt) {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        process.once(signal, () => {
          process.stderr.write('\nInterrupted.\n')
          process.exit(ExitCode.interrupted)
        })
      }
    }
    // A reader that went away (`| head -1`) is not an error.
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(ExitCode.ok)
    })
  }

  /** The command's context, built on first use from the global flags. */
  protected get ctx(): Context {
    if (!this.context) {
      const g = this.globals ?? {debug: this.debugging, maxWait: 120, noInput: false}
      this.context = new Context({
        profileFlag: g.profile,
        debug: g.debug,
        maxWaitMs: g.maxWait * 1000,
        oclifConfigDir: this.config.configDir,
        oclifDataDir: this.config.dataDir,
        oclifCacheDir: this.config.cacheDir,
        version: this.config.version,
      })
    }
    return this.context
  }

  /** The arguments and flags as parsed (with the ids from stdin, they name a bulk job). */
  private parsedInput?: {args: Record<string, unknown>; flags: Record<string, unknown>}

  /** Whether the `id` argument itself was `-` (the values read from stdin are then resource UUIDs). */
  private idsFromArg = false

  /** What the id argument names, from its description ("Product id, or - ..." -> "product id"). */
  private idDescription(): string {
    return (this.ctor.args as Record<string, {description?: string}> | undefined)?.id?.description ?? ''
  }

  private idNoun(): string {
    const description = this.idDescription()
    return /^([\w -]*?\bid)\b/i.exec(description)?.[1]?.toLowerCase() ?? 'id'
  }

  /** Parses like `this.parse`, and records the global flags for the context. */
  protected async parseWithGlobals<T extends typeof Command>(
    cmd: T,
  ): Promise<Interfaces.ParserOutput<BaseFlags<T>, BaseFlags<T>, Interfaces.InferredArgs<T['args']>>> {
    // an opaque token the service made (a seat invitation's) may begin with '-'
    if ((cmd as unknown as typeof BaseCommand).tokenArgument) {
      this.argv = tokenAfterDashes(this.argv, new Set([...Object.keys({...cmd.baseFlags, ...cmd.flags}), 'json', 'help']))
    }
    const parsed = (await this.parse(cmd as never)) as unknown as Interfaces.ParserOutput<BaseFlags<T>, BaseFlags<T>, Interfaces.InferredArgs<T['args']>>
    this.parsedInput = {args: parsed.args as Record<string, unknown>, flags: parsed.flags as Record<string, unknown>}
    const f = parsed.flags as unknown as {profile?: string; debug?: boolean; 'max-wait'?: number; 'no-input'?: boolean}
    this.globals = {profile: f.profile, debug: Boolean(f.debug) || this.debugging, maxWait: f['max-wait'] ?? 120, noInput: Boolean(f['no-input'])}
    // An `id` argument is a resource's UUID: checked here, before any request (`-` reads them from stdin).
    const id = (parsed.args as {id?: unknown}).id
    this.idsFromArg = id === '-'
    checkStdinDash(id, this.idDescription(), this.idNoun(), this.id ?? '')
    this.dryRun = Boolean((parsed.flags as {'dry-run'?: boolean})['dry-run'])
    resolveIds(parsed.args as Record<string, unknown>, parsed.flags as Record<string, unknown>, {
      defs: {...cmd.baseFlags, ...cmd.flags},
      command: `till ${(this.id ?? '').replaceAll(':', ' ')}`,
      noun: this.idNoun(),
      context: (external) => this.idContext(external),
    })
    checkArguments(parsed.args as Record<string, unknown>, parsed.flags as Record<string, unknown>, this.id ?? '')
    return parsed
  }

  /** Where a shown id prefix is looked up (the profile's remembered ids), and the flag that takes an external id. */
  private idContext(external?: IdContext['external']): IdContext {
    return {
      dir: this.ctx.configDir,
      profile: () => ({key: `${this.ctx.profile.name} ${this.ctx.profile.baseUrl}`, name: this.ctx.profile.name}),
      external,
      note: (line) => this.ctx.note(line),
    }
  }

  /** Asks for missing input on a terminal; fails naming the flag otherwise. */
  protected get prompter(): Prompter {
    this.prompts ??= new Prompter(this.ctx.io, this.globals?.noInput ?? false)
    return this.prompts
  }

  private dryRun = false
  /** Ids read from stdin ahead of acting on them, for a preview. */
  private heldInput?: string[]

  /** Every id on stdin (read once, before anything is done): how many there are, for the preview. */
  protected async stdinIds(): Promise<string[]> {
    if (!this.heldInput) {
      const {readIds} = await import('./bulk.js')
      const ids: string[] = []
      for await (const id of readIds(process.stdin)) ids.push(id)
      this.heldInput = ids
    }
    return this.heldInput
  }

  /**
   * Confirms a destructive or money-moving action (the summary says what will happen); --yes skips it.
   * For ids from stdin, a person (or --dry-run) is shown how many first, and `preview` may add more
   * (a refund's total). With --dry-run the summary is printed and the command stops, changing nothing.
   */
  protected async confirmAction(summary: string, yes: boolean | undefined, preview?: (ids: string[]) => Promise<string>): Promise<void> {
    if (/ read from stdin/.test(summary) && !this.ctx.io.stdinIsTTY && (this.dryRun || (!yes && this.prompter.canConfirm))) {
      const ids = await this.stdinIds()
      summary = preview ? await preview(ids) : (await import('./bulk.js')).countedSummary(summary, ids.length)
    }
    const p = this.ctx.profile
    if (this.dryRun) {
      // a summary names objects (a product's name from the API): shown escaped, as every message is
      this.ctx.io.stdout.write(`${terminalLines(`Dry run: would ${summary} (${p.environment}, profile ${p.name}); nothing was changed.`)}\n`)
      return this.exit(ExitCode.ok)
    }
    await this.prompter.confirm(summary, {yes, environment: p.environment, profile: p.name})
  }

  /**
   * Runs `action` for the id argument, or, when it is \`-\`, for every id read from stdin (one per line or
   * JSON lines with an id) within the rate budget. Each result is printed by `printOne`, as for one id:
   * records of one resource share one list (the same columns, the same JSON object per id, JSON lines),
   * each failure is one line on stderr, then a summary; the exit is 1 if any failed, 7 if the outcome of
   * some is unknown (and none failed). With --envelope, stdout has one {id, ok, status, result | error}
   * line per input instead. A command with --resume keeps the job's journal (src/cli/bulk-run.ts).
   */
  protected async eachId<T extends object>(
    id: string,
    flags: BulkFlags,
    action: (id: string) => Promise<T>,
    printOne: (result: T) => Promise<void>,
  ): Promise<void> {
    if (id !== '-') {
      const given = flags.resume ? '--resume' : flags.restart ? '--restart' : undefined
      if (given) throw usageError(`${given} applies to ids read from stdin (-): one id is not a job to resume`, 'drop it, or give - and pipe the ids in')
      await printOne(await action(id))
      return
    }
    if (this.ctx.io.stdinIsTTY)
      throw usageError(
        '"-" reads ids from stdin, but stdin is a terminal',
        'pipe ids in, e.g.: till orders list --status paid --all -o jsonl | jq -r .id | till ...',
      )
    const noun = this.idNoun()
    // Ids read for the `id` argument are UUIDs; keys and external ids (`--external-id -`, `key`) are not.
    if (this.idsFromArg) {
      const checked = action
      action = async (value: string) => checked(checkUuid(value, noun))
    }
    const {runBulk} = await import('./bulk-run.js')
    await runBulk(
      {
        ctx: this.ctx,
        printer: this.printer,
        prompter: this.prompter,
        command: (this.id ?? '').replaceAll(':', ' '),
        journaled: 'resume' in (this.ctor.flags ?? {}),
        parsed: this.parsedInput ?? {args: {}, flags: {}},
        idNoun: noun,
        idsFromArg: this.idsFromArg,
        stdinIds: () => this.stdinIds(),
        heldInput: this.heldInput,
        writeList: (resource, items, f) => this.writeList(resource, items, f),
        errorContext: () => this.errorContext(),
      },
      flags,
      action,
      printOne,
    )
  }

  /** What the last list read saw (total and items shown), for the terminal's "N more" line. */
  private listSeen?: {total?: number; maxPage?: number; yielded: number; first: number; limit: number}

  protected pageOptions(flags: {limit?: number; page?: number; all?: boolean; 'max-items'?: number}): PaginateOptions {
    if (flags.all && flags.page !== undefined) {
      throw usageError(
        '--all reads every page, so it cannot be given with --page',
        'use --all alone for the whole list, or --page N (with --limit) for one page',
      )
    }
    flags = overPage(flags)
    const maxItems = flags['max-items']
    const limit = flags.limit ?? (flags.all ? 100 : maxItems ? Math.min(100, maxItems) : 10)
    this.listSeen = {yielded: 0, first: flags.page ?? 1, limit}
    return {
      seen: this.listSeen,
      limit,
      page: flags.page,
      all: flags.all,
      maxItems,
      onShift: (before, after) =>
        this.ctx.note(`Warning: the list changed while it was read (${before} -> ${after} items); some items may be missing or repeated.`),
    }
  }

  /** Streams a list of `resource` items to stdout in the chosen format. */
  protected async writeList(resource: string, items: AsyncIterable<object> | Iterable<object>, flags: OutputFlagValues & {color?: boolean}): Promise<void> {
    const io = this.ctx.io
    const footer = (format: string) => {
      if (!io.stdoutIsTTY || format !== 'table') return undefined
      const p = this.ctx.profile
      return p.environment === 'production' ? `Warning: PRODUCTION data · profile ${p.name} · ${p.baseUrl}` : undefined
    }
    // a list going to a file while a person watches stderr: its progress there (src/cli/output/export-progress.ts)
    const {exportProgress} = io.stdoutIsTTY || !io.stderrIsTTY ? {exportProgress: undefined} : await import('./output/export-progress.js')
    const progress = exportProgress?.(this.ctx, resource.replaceAll('-', ' '), () => this.listSeen?.total)
    const format = await (progress
      ? progress.run(items, (counted) => this.printer.writeList(resource, counted, flags, footer))
      : this.printer.writeList(resource, items, flags, footer))
    this.noteRest(resource, io.stdoutIsTTY && format === 'table')
  }

  /** On a terminal: an empty list says so, and a table that is not the whole list says how many more and how to get them. */
  private noteRest(resource: string, table: boolean): void {
    const seen = this.listSeen
    if (!seen || resource === 'results') return
    const what = resource.replaceAll('-', ' ')
    if (seen.yielded === 0 && this.ctx.io.stderrIsTTY) {
      this.ctx.note(
        seen.first > 1 && (seen.maxPage ?? 0) < seen.first ? `No ${what} on page ${seen.first} (there are ${seen.maxPage ?? 0} pages).` : `No ${what} found.`,
      )
      return
    }
    if (!table || seen.total === undefined) return
    const more = seen.total - ((seen.first - 1) * seen.limit + seen.yielded)
    if (more > 0) {
      const line = `Showing ${seen.yielded} of ${seen.total} ${what}; ${more} more: add --all for every one, --max-items N for the first N, or --page ${seen.first + Math.ceil(seen.yielded / seen.limit)} for the next page.`
      const io = this.ctx.io
      this.ctx.note(wrapWords(line, io.stderrIsTTY ? io.stderr.columns : undefined))
    }
  }

  /** Prints one resource to stdout in the chosen format (with ids from stdin: one record of the shared list). */
  protected async writeOne(resource: string, item: object, flags: OutputFlagValues & {color?: boolean}): Promise<void> {
    await this.printer.writeOne(resource, item, flags)
  }

  /** A resource just changed (update, cancel, archive...): on a terminal its summary alone, not every field. */
  protected async writeChanged(resource: string, item: object, flags: OutputFlagValues & {color?: boolean}): Promise<void> {
    await this.printer.writeOne(resource, item, flags, {summaryOnly: true})
  }

  /** A resource just created: piped without a format, its id alone (and its one-time secret); else as `get` shows it (see Printer). */
  protected async writeCreated(resource: string, item: object, flags: OutputFlagValues & {color?: boolean}, options?: CreatedOptions): Promise<void> {
    await this.printer.writeCreated(resource, item, flags, options)
  }

  private printerOf?: Printer
  protected get printer(): Printer {
    this.printerOf ??= new Printer({ctx: this.ctx, registry: () => this.columnRegistry(), jsonEnabled: () => this.jsonEnabled()})
    return this.printerOf
  }

  /** Columns by resource name; the areas' command base adds theirs (see src/areas/command.ts). */
  protected async columnRegistry(): Promise<Record<string, ResourceColumns>> {
    return (await import('./output/columns.js')).cliColumns
  }

  protected override async finally(error: Error | undefined): Promise<unknown> {
    await this.context?.close()
    await Promise.all([flushed(process.stdout), flushed(process.stderr)]) // before oclif's process.exit
    return super.finally(error)
  }

  /**
   * One line on stderr when a deprecated flag name was used (even under --json, which only quiets stdout);
   * oclif's own warning wraps over lines and is silent under --json.
   */
  protected override warnIfFlagDeprecated(flags: Record<string, unknown>): void {
    const defs = {...this.ctor.baseFlags, ...this.ctor.flags} as Record<string, {deprecateAliases?: boolean; aliases?: string[]}>
    for (const name of Object.keys(flags)) {
      const def = defs[name]
      if (!def?.deprecateAliases) continue
      for (const alias of def.aliases ?? []) {
        if (this.argv.some((a) => a === `--${alias}` || a.startsWith(`--${alias}=`))) {
          process.stderr.write(`Warning: --${alias} is deprecated; use --${name}.\n`)
        }
      }
    }
  }

  /** Which API surface the command talks to; portal commands say 'portal' (it shapes 401 messages). */
  protected surface: 'core' | 'portal' = 'core'

  /** What error messages need to know about where the request went. Never throws. */
  protected errorContext(): ErrorContext {
    return errorContextOf(this.context, this.surface)
  }

  protected override async catch(error: Error & {exitCode?: number; oclif?: {exit?: number}; code?: string}): Promise<unknown> {
    // oclif's own exits and parse errors (unknown flag, missing argument) keep their behaviour, exit 2.
    if (error.message?.startsWith('EEXIT')) throw error
    // Ctrl-C at a prompt (the terminal is in raw mode, so it arrives as a key): interrupted, quietly.
    if (error.name === 'ExitPromptError') {
      process.stderr.write('\n')
      return this.exit(ExitCode.interrupted)
    }
    if (error instanceof DeclinedError) {
      process.stderr.write(`Cancelled; ${error.outcome}.\n${error.hint ? `Hint: ${error.hint}\n` : ''}`)
      return this.exit(error.exitCode)
    }
    // oclif's parse errors (unknown or missing flags and arguments, a refused value): one line, a usage error
    const parsed = oclifParseError(error, this.ctor, (this.id ?? '').replaceAll(':', ' '))
    if (parsed) {
      process.stderr.write(parsed.text)
      return this.exit(parsed.exit)
    }
    if (isInternalError(error)) {
      process.stderr.write(
        `Error: an internal error happened in "till ${(this.id ?? '').replaceAll(':', ' ')}" (${error.name}); this is a bug in till, not in what you did.\n`,
      )
      if (this.debugging && error.stack) process.stderr.write(`${redact(error.stack)}\n`)
      else process.stderr.write(`Hint: run the same command again with --debug to see the stack trace, and report it to ${REPORT_URL}.\n`)
      return this.exit(ExitCode.error)
    }
    const tillError = isFsError(error) ? systemFileError(error) : toTillError(error, this.errorContext()) // a file error in words
    // Whatever the user gave (a binary file's bytes, a pasted escape sequence) is shown escaped; a token
    // or a URL's password (TILL_API_URL=https://user:secret@...) is never shown.
    process.stderr.write(`Error: ${escapeControls(redact(tillError.message))}\n`)
    if (tillError.hint) process.stderr.write(`Hint: ${escapeControls(redact(tillError.hint))}\n`)
    if (this.debugging && error.stack) process.stderr.write(`${redact(error.stack)}\n`)
    else if (tillError.exitCode === ExitCode.error && !(error instanceof TillError) && !tillError.hint && !isFsError(error))
      process.stderr.write('Run again with --debug for details.\n')
    return this.exit(tillError.exitCode)
  }
}
