import {Flags} from '@oclif/core'

import {BaseCommand, outputFlags} from '../../areas/command.js'
import {metricChart, partialNote, wrapParts} from '../../areas/metrics/chart.js'
import {metricDefinition} from '../../areas/metrics/definitions.js'
import {metricSlugs, rangeFlags} from '../../areas/metrics/flags.js'
import {organizationCurrency, previousLabel, rangeOf, withPrevious} from '../../areas/metrics/load.js'
import {partialEnds, spanDays} from '../../areas/metrics/range.js'
import {chalkFor, colorEnabled, resolveFormat} from '../../cli/output/index.js'
import {longerThanScreen, page, pagerCommand} from '../../cli/pager.js'

export default class Metrics extends BaseCommand {
  static override summary = 'Chart metrics (revenue, orders, MRR, active subscriptions...) over a date range.'
  static override description =
    `On a terminal, one chart per metric as wide as the terminal and short enough for all of them to fit on the screen (paged when they cannot), with its figure over the range (the total; the latest value of a gauge such as MRR or active subscriptions; the average of an average such as the average order value) and its change against the range of the same length just before. A first or last period the range cuts short is marked * on the axis and named under the title. Piped, or with -o, one row per period and a column per metric (amounts in cents), as tsv, csv, json or jsonl.

The service computes the metrics: revenue is the net amount (after discounts, before tax) of the paid orders created in a period, active subscriptions are those started by a period and not yet ended in it. "till metrics list" names every metric; --metric takes those names or mrr, arr, aov, arpu, churn, conversion. Ranges are whole days in --timezone, both ends included.`
  static override enableJsonFlag = true
  static override examples = [
    {description: 'Revenue, orders, MRR and active subscriptions over the last 12 months', command: '<%= config.bin %> <%= command.id %>'},
    {description: 'Revenue and MRR per week over the last 12 weeks', command: '<%= config.bin %> <%= command.id %> --metric revenue --metric mrr --last 12w'},
    {
      description: 'Daily orders of one product in January, Paris time, as CSV',
      command:
        '<%= config.bin %> <%= command.id %> --metric orders --start 2025-01-01 --end 2025-01-31 --interval day --timezone Europe/Paris --product 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d -o csv',
    },
  ]

  static override flags = {
    ...outputFlags,
    metric: Flags.string({char: 'm', description: 'Metric to show (repeatable; default revenue, orders, mrr, active_subscriptions).', multiple: true}),
    ...rangeFlags,
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(Metrics)
    const rangeAt = rangeOf(flags) // the flags checked before any request
    const slugs = metricSlugs(flags.metric)
    const io = this.ctx.io
    const format = resolveFormat({output: flags.output, json: flags.json ?? this.jsonEnabled(), stdoutIsTTY: io.stdoutIsTTY})
    const client = await this.ctx.client()
    const range = await rangeAt(this.ctx.clock.now)
    if (format !== 'table') {
      const {getMetrics} = await import('../../client/resources/metrics.js')
      const {metricsQuery} = await import('../../areas/metrics/load.js')
      const response = await getMetrics(client, metricsQuery(range, flags, slugs))
      const rows = response.periods.map((p) => Object.fromEntries(['timestamp', ...slugs].map((k) => [k, p[k]])))
      await this.writeList('metrics', rows, {...flags, columns: flags.columns ?? ['timestamp', ...slugs].join(',')})
      return
    }
    const [{current, previous}, org] = await Promise.all([withPrevious(client, range, flags, slugs), organizationCurrency(client)])
    const color = colorEnabled({flag: flags.color, env: process.env, isTTY: io.stdoutIsTTY})
    const chalk = chalkFor(color)
    const options = {
      width: io.stdout.columns || 80,
      currency: org.currency,
      interval: range.interval,
      chalk,
      color,
      previousLabel: previousLabel(flags.start || flags.end ? undefined : (flags.last ?? '12m'), spanDays(range.startDate, range.endDate)),
      partial: partialEnds(range),
    }
    for (const slug of slugs) {
      if (metricDefinition(current, slug).missing)
        this.ctx.note(`Warning: the service sent no definition of metric "${slug}": its values are shown as plain numbers.`)
    }
    const note = partialNote(current.periods, range, options.partial)
    const title = chalk.dim(
      wrapParts([`${range.startDate} to ${range.endDate}`, `per ${range.interval} (${range.timezone})`], options.width) +
        (note.length > 0 ? `\n${wrapParts(note, options.width)}` : ''),
    )
    const screen = (height: number) => `${title}\n\n${slugs.map((slug) => metricChart(slug, current, previous, {...options, height})).join('\n\n')}\n`
    // the charts as tall as the terminal lets them all be seen at once (a line left for the prompt), so
    // that the first chart's heading does not scroll away; shorter than 3 rows they are paged instead
    const rows = io.stdout.rows
    const fits = (text: string) => !rows || text.split('\n').length <= rows
    let text = screen(8)
    for (let height = 7; height >= 3 && !fits(text); height--) text = screen(height)
    if (!fits(text)) text = screen(8)
    if (io.stdoutIsTTY && flags.pager !== false && longerThanScreen(text, rows)) {
      const command = pagerCommand(process.env)
      if (command && (await page(text, command, io.stdout))) return
    }
    io.stdout.write(text)
  }
}
