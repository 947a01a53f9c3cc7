import {renameSync, rmSync, writeFileSync} from 'node:fs'

import {Flags} from '@oclif/core'

import {BaseCommand} from '../areas/command.js'
import {rangeFlags} from '../areas/metrics/flags.js'
import {organizationCurrency, rangeOf, withPrevious} from '../areas/metrics/load.js'
import {REPORT_METRICS, reportHtml} from '../areas/metrics/report.js'
import {refundsPerPeriod, topProducts} from '../areas/metrics/report-data.js'
import {openInBrowser} from '../cli/open.js'
import {checkWritableTarget, fsError} from '../client/fs-problem.js'
import {getMetricDashboard} from '../client/resources/metrics.js'
import {usageError} from '../client/till-error.js'

export default class Report extends BaseCommand {
  static override summary = 'Write an offline HTML report of the main metrics, top products, refunds and subscriptions.'
  static override description =
    `One self-contained file: the chart library is inlined, so it opens without a network, and it can be sent to people who do not run till. Charts of revenue, net revenue, orders, MRR, active, new and churned subscriptions and average order value (with the change against the range before), refunds per period, and the products with the most revenue. --dashboard charts the metrics of a saved dashboard instead, in its order, under its name (till metrics dashboards list names them). --open shows it in the default browser.`
  static override examples = [
    {description: 'The last 12 months, monthly', command: '<%= config.bin %> <%= command.id %> --html report.html'},
    {description: 'Weekly over the last quarter, then open it', command: '<%= config.bin %> <%= command.id %> --html q.html --last 13w --interval week --open'},
    {
      description: 'The metrics of a saved dashboard',
      command: '<%= config.bin %> <%= command.id %> --html growth.html --dashboard 0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
    },
  ]

  static override flags = {
    html: Flags.string({description: 'File to write the HTML report to.', required: true}),
    open: Flags.boolean({description: 'Open the report in the default browser once written.'}),
    dashboard: Flags.string({description: 'Id of a saved metrics dashboard whose metrics to chart (instead of the main ones).'}),
    ...rangeFlags,
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(Report)
    if (flags.html.trim() === '') throw usageError('--html needs a file name', 'e.g. --html report.html')
    checkWritableTarget(flags.html, '--html')
    const rangeAt = rangeOf(flags) // the flags checked before any request
    const client = await this.ctx.client()
    const range = await rangeAt(this.ctx.clock.now)
    const dashboard = flags.dashboard ? await getMetricDashboard(client, flags.dashboard) : undefined
    const org = await organizationCurrency(client)
    const [{current, previous}, top, refunds] = await Promise.all([
      withPrevious(client, range, flags, dashboard ? dashboard.metrics : [...REPORT_METRICS]),
      topProducts(client, range, flags, org.currency),
      refundsPerPeriod(client, range, flags, org.currency),
    ])
    const refunded = refunds(current.periods.map((p) => p.timestamp))
    const html = reportHtml({
      organization: org.name,
      currency: org.currency,
      generatedAt: new Date().toISOString(),
      range,
      metrics: current,
      previous,
      topProducts: top.products,
      otherCurrencies: top.otherCurrencies,
      refunds: refunded.points,
      otherRefunds: refunded.others,
      dashboard: dashboard ? {name: dashboard.name, metrics: dashboard.metrics} : undefined,
    })
    const partial = `${flags.html}.partial-${process.pid}`
    try {
      writeFileSync(partial, html)
      renameSync(partial, flags.html)
    } catch (error) {
      rmSync(partial, {force: true})
      throw fsError(error, 'write', flags.html)
    }
    this.ctx.note(`Wrote ${flags.html} (${Math.round(html.length / 1024)} KB): ${range.startDate} to ${range.endDate}, per ${range.interval}.`)
    if (flags.open) await openInBrowser(flags.html, (line) => this.ctx.note(line))
  }
}
