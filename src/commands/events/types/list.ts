import {Flags} from '@oclif/core'

import {BaseCommand, outputFlags, pageFlags} from '../../../areas/command.js'
import {listEventTypes} from '../../../client/resources/events.js'

export default class EventTypesList extends BaseCommand {
  static override summary = 'List event types: each event name with its label, how often and when it occurred.'
  static override description =
    `Most recently seen first. A type exists for every event name ingested; system events (benefit.granted, meter.reset...) are listed too, without an id. With --customer or --external-customer the statistics count only those customers' events.`
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --source user --sort -occurrences',
    '<%= config.bin %> <%= command.id %> --external-customer usr_00001 -o json',
  ]

  static override flags = {
    ...outputFlags,
    ...pageFlags,
    source: Flags.option({options: ['user', 'system'] as const, description: 'Only types of this source.'})(),
    query: Flags.string({description: 'Only types whose name or label contains this text.'}),
    customer: Flags.string({description: "Count only this customer's events (customer id; repeatable).", multiple: true}),
    'external-customer': Flags.string({description: "Count only this customer's events (your external id; repeatable).", multiple: true}),
    parent: Flags.string({description: 'Count only the child events of this event id.'}),
    'root-only': Flags.boolean({description: 'Count only events without a parent.'}),
    sort: Flags.string({description: 'Sort keys, comma-separated; a leading - sorts descending (name, label, occurrences, first_seen, last_seen).'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(EventTypesList)
    const client = await this.ctx.client()
    const items = listEventTypes(
      client,
      {
        source: flags.source,
        query: flags.query,
        customerId: flags.customer,
        externalCustomerId: flags['external-customer'],
        parentId: flags.parent,
        rootEvents: flags['root-only'] || undefined,
        sorting: flags.sort?.split(','),
      },
      this.pageOptions(flags),
    )
    await this.writeList('event-types', items, flags)
  }
}
