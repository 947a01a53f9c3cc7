import {BaseCommand, outputFlags} from '../../areas/command.js'
import {describeMetric, presentMetrics} from '../../areas/metrics/definitions.js'
import {getMetrics} from '../../client/resources/metrics.js'

export default class MetricsList extends BaseCommand {
  static override summary = 'List the metrics the service computes, with their type and definition.'
  static override description =
    'The names are those --metric takes in "till metrics" and "till report". The list comes from the service (the metric definitions of a one-day request), with a sentence on how each is computed.'
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> -o json']
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(MetricsList)
    const today = new Date().toISOString().slice(0, 10)
    const response = await getMetrics(await this.ctx.client(), {startDate: today, endDate: today, interval: 'day'})
    const rows = presentMetrics(response).map((m) => ({slug: m.slug, name: m.display_name, type: m.type, definition: describeMetric(m.slug)}))
    await this.writeList('metric-definitions', rows, {...flags, columns: flags.columns ?? 'slug,name,type,definition'})
  }
}
