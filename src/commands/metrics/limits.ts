import {BaseCommand, outputFlags} from '../../areas/command.js'
import {getMetricsLimits} from '../../client/resources/metrics.js'

export default class MetricsLimits extends BaseCommand {
  static override summary = 'Show the earliest date and the range each interval allows in a metrics request.'
  static override description =
    "A request for metrics is refused when its range is longer than the interval allows (e.g. at most 366 days per day). --json gives the service's object."
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json']
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(MetricsLimits)
    const limits = await getMetricsLimits(await this.ctx.client())
    if (flags.json || flags.output === 'json') {
      await this.writeOne('metrics-limits', limits, flags)
      return
    }
    const rows = Object.entries(limits.intervals).map(([interval, l]) => ({interval, min_days: l.min_days, max_days: l.max_days, min_date: limits.min_date}))
    await this.writeList('metrics-limits', rows, {...flags, columns: flags.columns ?? 'interval,min_days,max_days,min_date'})
  }
}
