import {Flags} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {metricSlugs, rangeFlags} from '../../areas/metrics/flags.js'
import {metricsQuery, rangeOf} from '../../areas/metrics/load.js'
import {exportFlags} from '../../areas/sales/export.js'
import {csvForTerminal} from '../../cli/output/format.js'
import {checkWritableTarget} from '../../client/fs-problem.js'
import {saveFile} from '../../client/resources/invoices.js'
import {exportMetrics} from '../../client/resources/metrics.js'

export default class MetricsExport extends BaseCommand {
  static override summary = 'Export metrics over a date range as CSV, made by the service.'
  static override description =
    'One line per period: a Timestamp column, then one column per metric named by its display name (amounts in cents), as the service writes it. Every metric unless --metric names some. The range takes the same flags as till metrics. Without --file the CSV goes to stdout; with it, the file is written whole or not at all.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> --file metrics.csv',
    {
      description: 'Monthly revenue and MRR of 2025',
      command: '<%= config.bin %> <%= command.id %> --metric revenue --metric mrr --start 2025-01-01 --end 2025-12-31 --interval month',
    },
  ]

  static override flags = {
    ...exportFlags,
    metric: Flags.string({char: 'm', description: 'Metric to export (repeatable; default: every metric).', multiple: true}),
    ...rangeFlags,
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(MetricsExport)
    if (flags.file !== undefined) checkWritableTarget(flags.file, '--file')
    const rangeAt = rangeOf(flags) // the flags checked before any request
    const metrics = flags.metric ? metricSlugs(flags.metric) : undefined
    const client = await this.ctx.client()
    const range = await rangeAt(this.ctx.clock.now)
    const csv = await exportMetrics(client, metricsQuery(range, flags, metrics))
    if (!flags.file) {
      this.ctx.io.stdout.write(csvForTerminal(csv, this.ctx.io.stdoutIsTTY))
      return
    }
    await saveFile(flags.file, Buffer.from(csv, 'utf8'))
    const rows = Math.max(0, csv.split('\r\n').filter((l) => l !== '').length - 1)
    this.ctx.note(`Saved ${rows} periods to ${flags.file}.`)
  }
}
