import {Args} from '@oclif/core'

import {deleteBenefit, getBenefit} from '../../client/resources/benefits.js'
import {BaseCommand, bulkWriteFlags, outputFlags} from '../../areas/command.js'
import {yesFlag} from '../../areas/catalog/flags.js'
import {confirmTarget} from '../../areas/catalog/input.js'

export default class BenefitsDelete extends BaseCommand {
  static override summary = 'Delete a benefit: it is detached from its products and revoked from customers (asks for confirmation).'
  static override description =
    'Every customer who has the benefit loses it (license keys are revoked, roles removed). Without a terminal, --yes is required. Give - as ID to delete every benefit id read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0b6d9f2e-8c1a-4d3b-9e7f-5a2c4b6d8e01',
    '<%= config.bin %> <%= command.id %> 0b6d9f2e-8c1a-4d3b-9e7f-5a2c4b6d8e01 --yes',
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Benefit id, or - to read ids from stdin.', required: true})}
  static override flags = {...outputFlags, ...bulkWriteFlags, ...yesFlag}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(BenefitsDelete)
    const ask = this.prompter.interactive && !flags.yes
    const description = async () => (await getBenefit(await this.ctx.client(), args.id)).description
    const what = await confirmTarget('benefit', args.id, ask, description)
    await this.confirmAction(`delete ${what} and revoke it from every customer who has it`, flags.yes)
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      async (id) => {
        await deleteBenefit(client, id)
        return {id, deleted: true}
      },
      async (result) => {
        if (this.jsonEnabled() || flags.output) await this.writeOne('deleted', result, flags)
        else this.ctx.note(`Deleted benefit ${result.id}.`)
      },
    )
  }
}
