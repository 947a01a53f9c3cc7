import {Args} from '@oclif/core'

import {getCustomField} from '../../client/resources/custom-fields.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'

export default class CustomFieldsGet extends BaseCommand {
  static override summary = 'Show one custom field with its form properties.'
  static override description = 'Give - as ID to show every field id read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 4a5b6c7d-8e9f-4a0b-9c1d-2e3f4a5b6c7d',
    '<%= config.bin %> <%= command.id %> 4a5b6c7d-8e9f-4a0b-9c1d-2e3f4a5b6c7d --json',
  ]
  static override args = {id: Args.string({ignoreStdin: true, description: 'Custom field id, or - to read ids from stdin.', required: true})}
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(CustomFieldsGet)
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      (id) => getCustomField(client, id),
      (item) => this.writeOne('custom-fields', item, flags),
    )
  }
}
