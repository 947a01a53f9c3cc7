import {Args} from '@oclif/core'

import {deleteCustomField, getCustomField} from '../../client/resources/custom-fields.js'
import {BaseCommand, bulkWriteFlags, outputFlags} from '../../areas/command.js'
import {yesFlag} from '../../areas/catalog/flags.js'
import {confirmTarget} from '../../areas/catalog/input.js'

export default class CustomFieldsDelete extends BaseCommand {
  static override summary = 'Delete a custom field: checkouts stop asking it (asks for confirmation).'
  static override description =
    'It is detached from every product. Answers already given stay in orders and subscriptions. Without a terminal, --yes is required.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 4a5b6c7d-8e9f-4a0b-9c1d-2e3f4a5b6c7d',
    '<%= config.bin %> <%= command.id %> 4a5b6c7d-8e9f-4a0b-9c1d-2e3f4a5b6c7d --yes',
  ]
  static override args = {id: Args.string({ignoreStdin: true, description: 'Custom field id, or - to read ids from stdin.', required: true})}
  static override flags = {...outputFlags, ...bulkWriteFlags, ...yesFlag}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(CustomFieldsDelete)
    const ask = this.prompter.interactive && !flags.yes
    const label = async () => (await getCustomField(await this.ctx.client(), args.id)).name
    await this.confirmAction(`delete ${await confirmTarget('custom field', args.id, ask, label)}`, flags.yes)
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      async (id) => {
        await deleteCustomField(client, id)
        return {id, deleted: true}
      },
      async (result) => {
        if (this.jsonEnabled() || flags.output) await this.writeOne('deleted', result, flags)
        else this.ctx.note(`Deleted custom field ${result.id}.`)
      },
    )
  }
}
