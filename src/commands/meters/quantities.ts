import {Args, Flags} from '@oclif/core'

import {BaseCommand, outputFlags} from '../../areas/command.js'
import {chart} from '../../areas/usage/chart.js'
import {getMeter, INTERVALS, meterQuantities} from '../../client/resources/meters.js'
import {nowFor, whenIso, WHEN_HELP} from '../../cli/input/when.js'
import {usageError} from '../../client/till-error.js'
import {terminalText} from '../../cli/output/format.js'

const isTimeZone = (name: string) => {
  try {
    new Intl.DateTimeFormat('en-US', {timeZone: name})
    return true
  } catch {
    return false
  }
}

export default class MetersQuantities extends BaseCommand {
  static override summary = "A meter's quantity per period, charted on a terminal."
  static override description =
    `One quantity per --interval from --start to --end (default: the last 30 days by day), computed by the service from the events, and the total. On a terminal a chart in the terminal's width comes first, then the table; piped, the periods as TSV (or -o csv/json); --json prints the API's answer.`
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 5c8e1a2b-3d4f-4a6b-8c9d-0e1f2a3b4c5d --start 2026-01-01 --end 2026-02-01 --interval day',
    {
      description: 'Days from local midnight in Tokyo',
      command:
        '<%= config.bin %> <%= command.id %> 5c8e1a2b-3d4f-4a6b-8c9d-0e1f2a3b4c5d --start 2026-01-01T00:00:00+09:00 --end 2026-01-07T23:59:59+09:00 --timezone Asia/Tokyo',
    },
    {
      description: "One customer's usage per week, as CSV",
      command: '<%= config.bin %> <%= command.id %> 5c8e1a2b-3d4f-4a6b-8c9d-0e1f2a3b4c5d --external-customer usr_00001 --interval week -o csv',
    },
  ]

  static override args = {id: Args.string({description: 'Meter id.', required: true})}
  static override flags = {
    ...outputFlags,
    start: Flags.string({description: `First moment counted: ${WHEN_HELP} (default 30d).`}),
    end: Flags.string({description: 'Last moment counted (a date: to its end, inclusive; default now).'}),
    interval: Flags.option({options: INTERVALS, description: 'Length of each period.', default: 'day'})(),
    customer: Flags.string({description: 'Only events of this customer id (repeatable).', multiple: true}),
    'external-customer': Flags.string({description: 'Only events of this external customer id (repeatable).', multiple: true}),
    metadata: Flags.string({description: 'Only events with this metadata key=value (repeatable).', multiple: true}),
    timezone: Flags.string({description: 'IANA time zone of the periods (days start at local midnight), e.g. Europe/Paris; default UTC.'}),
    'per-customer': Flags.option({
      options: ['sum', 'max', 'min', 'avg', 'count', 'unique'] as const,
      description: "Compute each customer's quantity first, then combine them with this function (e.g. max: the biggest customer's usage per period).",
    })(),
    chart: Flags.boolean({description: 'Draw the chart (default: on a terminal).', allowNo: true}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(MetersQuantities)
    // without --end the window ends now: the environment's time, as a date word's
    const now = await nowFor(this.ctx.clock.now, {'--end': flags.end ?? 'now', '--start': flags.start})
    const end = whenIso(flags.end ?? 'now', '--end', {end: true, now})
    const start = flags.start ? whenIso(flags.start, '--start', {now}) : new Date(Date.parse(end) - 30 * 86_400_000).toISOString()
    if (start > end) throw usageError(`--start ${flags.start} is after --end ${end}`, 'give a --start before --end')
    if (flags.timezone !== undefined && !isTimeZone(flags.timezone)) {
      throw usageError(`--timezone ${flags.timezone} is not a time zone name`, 'use an IANA name such as UTC, Europe/Paris or America/New_York')
    }
    const client = await this.ctx.client()
    const result = await meterQuantities(client, args.id, {
      start,
      end,
      interval: flags.interval,
      timezone: flags.timezone,
      customerAggregation: flags['per-customer'],
      customerId: flags.customer,
      externalCustomerId: flags['external-customer'],
      metadata: flags.metadata,
    })
    const io = this.ctx.io
    if (this.jsonEnabled()) {
      io.stdout.write(`${JSON.stringify(result, null, io.stdoutIsTTY ? 2 : undefined)}\n`)
      return
    }
    if (flags.chart ?? (io.stdoutIsTTY && !flags.output)) {
      const meter = await getMeter(client, args.id)
      io.stdout.write(`${chart(result.quantities, flags.interval, io.stdout.columns || 80, `${terminalText(String(meter.name))} per ${flags.interval}`)}\n\n`)
    }
    await this.writeList('meter-quantities', result.quantities, flags)
    this.ctx.note(`Total: ${result.total}`)
  }
}
