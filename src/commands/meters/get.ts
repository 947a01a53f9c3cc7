import {Args} from '@oclif/core'

import {BaseCommand, outputFlags} from '../../areas/command.js'
import {getMeter} from '../../client/resources/meters.js'

export default class MetersGet extends BaseCommand {
  static override summary = 'Show one meter: its filter and aggregation.'
  static override description = 'Give - as ID to show every meter id read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 5c8e1a2b-3d4f-4a6b-8c9d-0e1f2a3b4c5d',
    '<%= config.bin %> <%= command.id %> 5c8e1a2b-3d4f-4a6b-8c9d-0e1f2a3b4c5d --json | jq .filter',
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Meter id, or - to read ids from stdin.', required: true})}
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(MetersGet)
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      (id) => getMeter(client, id),
      (meter) => this.writeOne('meters', meter, flags),
    )
  }
}
