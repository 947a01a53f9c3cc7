import {Args, Flags} from '@oclif/core'

import {BaseCommand} from '../../../areas/command.js'
import {controlPost, requireEmulator} from '../../../areas/emulator/control.js'
import {advanceLine, type Advance} from '../../../areas/emulator/summaries.js'
import {durationParts, LAST_DATE, LAST_TIME_MS, roughDurationMs} from '../../../client/durations.js'
import {calendarProblem, parseIsoTime} from '../../../client/iso-time.js'
import {ExitCode, TillError, usageError} from '../../../client/till-error.js'

/** How long a walk may take before the request gives up (its outcome then unknown: see the clock). */
const WALK_DEADLINE_MS = 30 * 60_000

export default class EmulatorClockAdvance extends BaseCommand {
  static override summary = "Move the emulator environment's time forward: renewals, payments, retries, trials and cancellations fall due on the way."
  static override description =
    `Walks the environment's time forward and settles everything that falls due on the way, each at its own moment and in time order, as the service does: subscriptions renew (an order, its payment after the payment delay, subscription.cycled), a declining card goes past_due and is retried 2, 7, 14 and 21 days later before the subscription is revoked, trials end with their first charge, cancellations at the period's end take effect, repeating discounts run out, metered usage is billed at renewal, license keys and open checkouts expire. Every webhook event is sent in that order with its own timestamp (to registered endpoints, till listen and --forward-to).

DURATION is a number and a unit: s, m, h, d, w, mo (calendar months) or y (years), combined as in 1y2mo. The clock never goes back (till emulator clock reset). A walk goes at most 10 years ahead unless --far is given; a long one goes in legs, and the emulator answers other requests between them (at the moment reached). Stopped (Ctrl-C), a walk keeps what it settled so far. Prints one line; --json prints what the walk did.`
  static override examples = [
    '<%= config.bin %> <%= command.id %> 35d',
    {description: 'A year of renewals', command: '<%= config.bin %> <%= command.id %> 1y'},
    {description: 'To a date', command: '<%= config.bin %> <%= command.id %> --to 2027-06-30'},
    {description: 'Until the next renewal', command: '<%= config.bin %> <%= command.id %> --until-next subscription.cycled'},
  ]
  static override enableJsonFlag = true

  static override args = {duration: Args.string({description: 'How far to move: 35d, 1mo, 1y, 2w3d, 12h.'})}
  static override flags = {
    to: Flags.string({description: 'Move to this date or time (2027-06-30, 2027-06-30T12:00:00Z).', exclusive: ['until-next']}),
    'until-next': Flags.string({description: 'Move until the next webhook event of this type is sent (e.g. subscription.cycled), at most 5 years.'}),
    far: Flags.boolean({description: 'Walk more than 10 years ahead (a year of 10,000 subscriptions takes a minute).'}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(EmulatorClockAdvance)
    requireEmulator(this.ctx.profile)
    const given = [args.duration, flags.to, flags['until-next']].filter((v) => v !== undefined).length
    if (given === 0)
      throw usageError('say how far to move the clock', 'e.g. till emulator clock advance 35d, --to 2027-06-30 or --until-next subscription.cycled')
    if (args.duration !== undefined && flags.to !== undefined) throw usageError('give a duration or --to, not both', 'e.g. till emulator clock advance 35d')
    if (args.duration !== undefined) checkDuration(args.duration)
    if (flags.to !== undefined) checkDate(flags.to)
    const client = await this.ctx.client()
    const far = flags.far ? {far: true} : {}
    const body = {duration: args.duration, to: flags.to, until_next: flags['until-next'], ...far}
    // A walk answers once it is done: a year of a store of 10,000 subscriptions takes about a minute, so the
    // request may take up to WALK_DEADLINE_MS, and a walk past a second says on stderr what it is waiting for
    const how = args.duration ?? (flags.to ? `to ${flags.to}` : `until the next ${flags['until-next']}`)
    const waiting = setTimeout(() => this.ctx.note(`Moving the ${this.ctx.profile.name} clock ${how}: settling what falls due on the way...`), 1000)
    const result = await controlPost<Advance & {environment?: string}>(client, '/clock/advance', body, WALK_DEADLINE_MS).finally(() => clearTimeout(waiting))
    const environment = result.environment ?? this.ctx.profile.name
    this.ctx.io.stdout.write(
      this.jsonEnabled() ? `${JSON.stringify(result, null, this.ctx.io.stdoutIsTTY ? 2 : undefined)}\n` : `${advanceLine(environment, result)}\n`,
    )
    if (result.found === false) {
      throw new TillError(`no ${flags['until-next']} event came within 5 years: the clock moved 5 years`, ExitCode.error)
    }
  }
}

const PAST_LAST = `goes past the last date a clock can hold (${LAST_DATE})`

/** Refuses what is no duration, or goes past any clock's last date, before a request is sent. */
function checkDuration(text: string): void {
  const parts = durationParts(text)
  if (!parts) throw usageError(`"${text}" is not a duration`, 'give a number and a unit: 35d, 1mo, 1y, 2w3d or 12h')
  if (roughDurationMs(parts) > LAST_TIME_MS - Date.now()) {
    throw usageError(`"${text}" ${PAST_LAST}`, 'give a shorter duration (e.g. 2y)')
  }
}

/** Refuses a --to that is no real date (2027-02-30), or past any clock's last date. */
function checkDate(text: string): void {
  const at = parseIsoTime(text)
  if (Number.isNaN(at)) {
    const calendar = calendarProblem(text)
    const why = calendar ? ` (${calendar})` : ''
    throw usageError(`--to "${text}" is not a date${why}`, 'give one such as 2027-01-31 or 2027-01-31T12:00:00Z')
  }
  if (at > LAST_TIME_MS) throw usageError(`--to "${text}" ${PAST_LAST}`, 'give a nearer date')
}
