import {Flags} from '@oclif/core'

import {BaseCommand, outputFlags, pageFlags} from '../../areas/command.js'
import {listMeters} from '../../client/resources/meters.js'

export default class MetersList extends BaseCommand {
  static override summary = 'List meters.'
  static override description = 'Archived meters are included unless --no-archived is given (--archived: only archived ones).'
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --no-archived --query tokens --json']

  static override flags = {
    ...outputFlags,
    ...pageFlags,
    query: Flags.string({description: 'Only meters whose name contains this text.'}),
    archived: Flags.boolean({description: 'Only archived meters (--no-archived: only active ones).', allowNo: true}),
    metadata: Flags.string({description: 'Only meters with this metadata key=value (repeatable).', multiple: true}),
    sort: Flags.string({description: 'Sort keys, comma-separated; a leading - sorts descending (created_at, name).'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(MetersList)
    const client = await this.ctx.client()
    const items = listMeters(
      client,
      {query: flags.query, archived: flags.archived, metadata: flags.metadata, sorting: flags.sort?.split(',')},
      this.pageOptions(flags),
    )
    await this.writeList('meters', items, flags)
  }
}
