import {Flags} from '@oclif/core'

import {CUSTOM_FIELD_TYPES, listCustomFields} from '../../client/resources/custom-fields.js'
import {BaseCommand, outputFlags, pageFlags} from '../../areas/command.js'

export default class CustomFieldsList extends BaseCommand {
  static override summary = 'List custom checkout fields, by slug.'
  static override description =
    'Custom fields are questions asked at checkout (text, number, date, checkbox, select); products attach them with till custom-fields attach.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'Select fields whose name or slug contains "size"', command: '<%= config.bin %> <%= command.id %> --type select --query size'},
  ]
  static override flags = {
    ...outputFlags,
    ...pageFlags,
    query: Flags.string({char: 'q', description: 'Only fields whose name or slug contains this text.'}),
    type: Flags.option({options: CUSTOM_FIELD_TYPES, description: 'Only fields of this type (repeatable).', multiple: true})(),
    sort: Flags.string({
      description: 'Sort keys, comma-separated; a leading - sorts descending (default -created_at: newest first; slug, name, type, created_at).',
    }),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(CustomFieldsList)
    const client = await this.ctx.client()
    await this.writeList(
      'custom-fields',
      listCustomFields(client, {query: flags.query, type: flags.type, sorting: flags.sort?.split(',') ?? ['-created_at']}, this.pageOptions(flags)),
      flags,
    )
  }
}
