import {Args, Flags} from '@oclif/core'

import {BaseCommand, outputFlags} from '../../../areas/command.js'
import {updateEventType} from '../../../client/resources/events.js'
import {usageError} from '../../../client/till-error.js'

export default class EventTypesUpdate extends BaseCommand {
  static override summary = "Set an event type's label: how events of that name are shown."
  static override description =
    'The label (1-128 characters) replaces the event name in lists of events, event names and event types. The id is the one `till events types list` shows; system event types have none and keep their fixed labels.'
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %> 5c8e1a2b-3d4f-4a6b-8c9d-0e1f2a3b4c5d --label "API call"']

  static override args = {id: Args.string({description: 'Event type id.', required: true})}
  static override flags = {
    ...outputFlags,
    label: Flags.string({description: 'The new label (1-128 characters).', required: true}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(EventTypesUpdate)
    const label = flags.label.trim()
    if (label === '' || label.length > 128) throw usageError('--label must have 1 to 128 characters besides spaces', 'e.g. --label "API call"')
    const client = await this.ctx.client()
    await this.writeChanged('event-types', await updateEventType(client, args.id, label), flags)
  }
}
