import {Args} from '@oclif/core'

import {getSeatClaimInfo} from '../../client/resources/seats.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'

export default class SeatsClaimInfo extends BaseCommand {
  static override summary = 'Show what a seat invitation is for (product, organization, e-mail), without claiming it.'
  static override description =
    'The invitation token is the one in the e-mail the seat holder got (on the emulator: till emulator seat-invitation SEAT_ID). Reading it changes nothing; an unknown, used or expired token is not found.'
  static override enableJsonFlag = true
  static override tokenArgument = true
  static override examples = ['<%= config.bin %> <%= command.id %> 3q2-Xv9dY0s7kLmN4pQrStUvWxYz1a2B3c4D5e6F7g8']

  static override args = {token: Args.string({description: 'The invitation token.', required: true, ignoreStdin: true})}
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(SeatsClaimInfo)
    await this.writeOne('seat-claim-info', await getSeatClaimInfo(await this.ctx.client(), args.token), flags)
  }
}
