import {Args} from '@oclif/core'

import {BaseCommand, outputFlags} from '../../areas/command.js'
import {getEvent} from '../../client/resources/events.js'

export default class EventsGet extends BaseCommand {
  static override summary = 'Show one event.'
  static override description = 'Give - as ID to show every event id read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 3f0c2a4e-8b1d-4c6e-9a7f-1d2e3f4a5b6c',
    '<%= config.bin %> <%= command.id %> 3f0c2a4e-8b1d-4c6e-9a7f-1d2e3f4a5b6c --json | jq .metadata',
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Event id, or - to read ids from stdin.', required: true})}
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(EventsGet)
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      (id) => getEvent(client, id),
      (event) => this.writeOne('events', event, flags),
    )
  }
}
