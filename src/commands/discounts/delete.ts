import {Args} from '@oclif/core'

import {deleteDiscount, getDiscount} from '../../client/resources/discounts.js'
import {BaseCommand, bulkWriteFlags, outputFlags} from '../../areas/command.js'
import {yesFlag} from '../../areas/catalog/flags.js'
import {confirmTarget} from '../../areas/catalog/input.js'

export default class DiscountsDelete extends BaseCommand {
  static override summary = 'Delete a discount: it can no longer be redeemed (asks for confirmation).'
  static override description =
    'Orders and subscriptions that already use it keep it. Without a terminal, --yes is required. Give - as ID to delete every discount id read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 5b0e6d2c-7a1f-4c3e-9d8b-2f4a6c8e0b1d',
    {
      description: 'Delete every discount whose name or code contains "test", without asking',
      command: '<%= config.bin %> discounts list --query test --all -o jsonl | <%= config.bin %> <%= command.id %> - --yes',
    },
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Discount id, or - to read ids from stdin.', required: true})}
  static override flags = {...outputFlags, ...bulkWriteFlags, ...yesFlag}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(DiscountsDelete)
    const ask = this.prompter.interactive && !flags.yes
    const label = async () => (await getDiscount(await this.ctx.client(), args.id)).name
    await this.confirmAction(`delete ${await confirmTarget('discount', args.id, ask, label)}`, flags.yes)
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      async (id) => {
        await deleteDiscount(client, id)
        return {id, deleted: true}
      },
      async (result) => {
        if (this.jsonEnabled() || flags.output) await this.writeOne('deleted', result, flags)
        else this.ctx.note(`Deleted discount ${result.id}.`)
      },
    )
  }
}
