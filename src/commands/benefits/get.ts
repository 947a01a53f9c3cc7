import {Args} from '@oclif/core'

import {getBenefit} from '../../client/resources/benefits.js'
import {BaseCommand, bulkFlags, outputFlags} from '../../areas/command.js'

export default class BenefitsGet extends BaseCommand {
  static override summary = 'Show one benefit with its properties.'
  static override description = 'Give - as ID to show every benefit id read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0b6d9f2e-8c1a-4d3b-9e7f-5a2c4b6d8e01',
    '<%= config.bin %> <%= command.id %> 0b6d9f2e-8c1a-4d3b-9e7f-5a2c4b6d8e01 --json | jq .properties',
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Benefit id, or - to read ids from stdin.', required: true})}
  static override flags = {...outputFlags, ...bulkFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(BenefitsGet)
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      (id) => getBenefit(client, id),
      (benefit) => this.writeOne('benefits', benefit, flags),
    )
  }
}
