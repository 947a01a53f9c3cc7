import {Args, Flags} from '@oclif/core'

import {revokeSeat} from '../../client/resources/seats.js'
import {BaseCommand, dryRunFlag, outputFlags} from '../../areas/command.js'

export default class SeatsRevoke extends BaseCommand {
  static override summary = 'Revoke a seat: its holder loses the benefits of the product at once, and the seat is free for someone else.'
  static override description =
    'A pending seat loses its invitation. Revoking a revoked seat changes nothing. It moves access, so it is confirmed on a terminal and needs --yes otherwise.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 6a1f2e3d-4c5b-4a69-8e7d-0f1a2b3c4d5e',
    '<%= config.bin %> <%= command.id %> 6a1f2e3d-4c5b-4a69-8e7d-0f1a2b3c4d5e --yes --json',
  ]

  static override args = {id: Args.string({description: 'Seat id.', required: true, ignoreStdin: true})}
  static override flags = {
    ...outputFlags,
    yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'}),
    'dry-run': dryRunFlag,
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(SeatsRevoke)
    await this.confirmAction(`revoke seat ${args.id} (its holder loses the product's benefits now)`, flags.yes)
    await this.writeChanged('customer-seats', await revokeSeat(await this.ctx.client(), args.id), flags)
  }
}
