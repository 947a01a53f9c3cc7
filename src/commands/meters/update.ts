import {Args, Flags} from '@oclif/core'

import {BaseCommand, outputFlags} from '../../areas/command.js'
import {filterFrom, meterDefinitionFlags, parseAggregation, readDefinition} from '../../areas/usage/flags.js'
import {mergeMetadata} from '../../cli/input/fields.js'
import {getMeter, updateMeter, type MeterUpdate} from '../../client/resources/meters.js'
import {usageError} from '../../client/till-error.js'

export default class MetersUpdate extends BaseCommand {
  static override summary = "Change a meter's name, filter, aggregation or metadata."
  static override description =
    'Only what is given changes. --where replaces the whole filter. Changing the filter or aggregation changes the quantities of past periods too: they are computed from the events.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 5c8e1a2b-3d4f-4a6b-8c9d-0e1f2a3b4c5d --name "API tokens (all models)"',
    '<%= config.bin %> <%= command.id %> 5c8e1a2b-3d4f-4a6b-8c9d-0e1f2a3b4c5d --where name=api.call --where "model~gpt" --aggregation sum:tokens',
  ]

  static override args = {id: Args.string({description: 'Meter id.', required: true})}
  static override flags = {
    ...outputFlags,
    ...meterDefinitionFlags,
    name: Flags.string({description: 'New name.'}),
    metadata: Flags.string({description: 'Set metadata key=value (repeatable; key= removes the key).', multiple: true}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(MetersUpdate)
    const body: MeterUpdate = flags.from ? (readDefinition(flags.from) as MeterUpdate) : {}
    if (flags.name !== undefined) body.name = flags.name
    const filter = filterFrom(flags.where, flags.any)
    if (filter) body.filter = filter
    if (flags.aggregation) body.aggregation = parseAggregation(flags.aggregation)
    const client = await this.ctx.client()
    if (flags.metadata) body.metadata = mergeMetadata((await getMeter(client, args.id)).metadata, flags.metadata) as MeterUpdate['metadata']
    if (Object.keys(body).length === 0) throw usageError('nothing to change', 'give --name, --where, --aggregation, --metadata or --from FILE')
    await this.writeChanged('meters', await updateMeter(client, args.id, body), flags)
  }
}
