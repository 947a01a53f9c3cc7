import {Flags} from '@oclif/core'

import {BaseCommand, outputFlags, pageFlags} from '../../areas/command.js'
import {listEventNames} from '../../client/resources/events.js'

export default class EventsNames extends BaseCommand {
  static override summary = 'List the event names seen, with how often and when.'
  static override description = 'Most recently seen first. Useful to pick the name a meter should filter on.'
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --source user --sort -occurrences']

  static override flags = {
    ...outputFlags,
    ...pageFlags,
    source: Flags.option({options: ['user', 'system'] as const, description: 'Only names from this source (repeatable).', multiple: true})(),
    query: Flags.string({description: 'Only names containing this text.'}),
    sort: Flags.string({description: 'Sort keys, comma-separated; a leading - sorts descending (name, occurrences, first_seen, last_seen).'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(EventsNames)
    const client = await this.ctx.client()
    const items = listEventNames(client, {source: flags.source, query: flags.query, sorting: flags.sort?.split(',')}, this.pageOptions(flags))
    await this.writeList('event-names', items, flags)
  }
}
