import {Flags} from '@oclif/core'

import {BaseCommand, outputFlags} from '../../areas/command.js'
import {filterFrom, meterDefinitionFlags, parseAggregation, readDefinition} from '../../areas/usage/flags.js'
import {metadataFrom} from '../../cli/input/fields.js'
import {createMeter, type MeterCreate} from '../../client/resources/meters.js'
import {usageError} from '../../client/till-error.js'

export default class MetersCreate extends BaseCommand {
  static override summary = 'Create a meter: which events it counts and how.'
  static override description =
    `--where clauses select the events (all must hold; --any: one is enough); --aggregation says what to compute: count, or sum, max, min, avg or unique over a metadata property. A JSON file (--from) can hold the whole meter, nested and/or filters included; flags override its fields.`
  static override enableJsonFlag = true
  static override examples = [
    {
      description: 'Sum the tokens of api.call events',
      command: '<%= config.bin %> <%= command.id %> --name "API tokens" --where name=api.call --aggregation sum:tokens',
    },
    {
      description: 'Count large requests',
      command: '<%= config.bin %> <%= command.id %> --name "Large requests" --where name=api.call --where "bytes>=1048576" --aggregation count',
    },
    {description: 'From a file', command: '<%= config.bin %> <%= command.id %> --from meter.json'},
  ]

  static override flags = {
    ...outputFlags,
    ...meterDefinitionFlags,
    name: Flags.string({description: 'Name shown on invoices and usage (at least 3 characters).'}),
    unit: Flags.option({options: ['scalar', 'token', 'custom'] as const, description: 'Unit of the quantities.'})(),
    metadata: Flags.string({description: 'Metadata key=value (repeatable).', multiple: true}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(MetersCreate)
    const base = flags.from ? readDefinition(flags.from) : {}
    const body = {
      ...base,
      ...(flags.name === undefined ? {} : {name: flags.name}),
      ...(flags.unit === undefined ? {} : {unit: flags.unit}),
      ...(flags.metadata ? {metadata: metadataFrom(flags.metadata)} : {}),
    } as Partial<MeterCreate>
    const filter = filterFrom(flags.where, flags.any)
    if (filter) body.filter = filter
    if (flags.aggregation) body.aggregation = parseAggregation(flags.aggregation)
    if (!body.name) throw usageError('missing --name: the meter needs a name', 'e.g. --name "API tokens"')
    if (!body.filter) throw usageError('missing --where: which events the meter counts', 'e.g. --where name=api.call (or a "filter" in --from FILE)')
    if (!body.aggregation) throw usageError('missing --aggregation: what the meter computes', 'e.g. --aggregation count or --aggregation sum:tokens')
    const client = await this.ctx.client()
    await this.writeCreated('meters', await createMeter(client, body as MeterCreate), flags)
  }
}
