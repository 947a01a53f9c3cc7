import {Args} from '@oclif/core'

import {deleteCheckoutLink, getCheckoutLink} from '../../client/resources/checkout-links.js'
import {BaseCommand, bulkWriteFlags, outputFlags} from '../../areas/command.js'
import {yesFlag} from '../../areas/catalog/flags.js'
import {confirmTarget} from '../../areas/catalog/input.js'

export default class CheckoutLinksDelete extends BaseCommand {
  static override summary = 'Delete a checkout link: its URL stops working (asks for confirmation).'
  static override description =
    'Checkouts already opened from the link are not affected. Without a terminal, --yes is required. Give - as ID to delete every link id read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 4c3b2a19-8d7e-4f6a-9b5c-3d2e1f0a9b8c',
    {
      description: 'Delete every link of a product, without asking',
      command:
        '<%= config.bin %> checkout-links list --product 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21 --all -o jsonl | <%= config.bin %> <%= command.id %> - --yes',
    },
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Checkout link id, or - to read ids from stdin.', required: true})}
  static override flags = {...outputFlags, ...bulkWriteFlags, ...yesFlag}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(CheckoutLinksDelete)
    const ask = this.prompter.interactive && !flags.yes
    const label = async () => {
      const link = await getCheckoutLink(await this.ctx.client(), args.id)
      return link.label ?? link.url
    }
    await this.confirmAction(`delete ${await confirmTarget('checkout link', args.id, ask, label)}`, flags.yes)
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      async (id) => {
        await deleteCheckoutLink(client, id)
        return {id, deleted: true}
      },
      async (result) => {
        if (this.jsonEnabled() || flags.output) await this.writeOne('deleted', result, flags)
        else this.ctx.note(`Deleted checkout link ${result.id}.`)
      },
    )
  }
}
