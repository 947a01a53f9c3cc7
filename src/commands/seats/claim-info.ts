import {Args} from '@oclif/core'

import {ApiError} from '../../client/errors.js'
import {getSeatClaimInfo} from '../../client/resources/seats.js'
import {ExitCode, TillError} from '../../client/till-error.js'
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
    const info = await getSeatClaimInfo(await this.ctx.client(), args.token).catch((error: unknown) => {
      // the path's last segment is the token, not an id: the not-found sentence would show it
      if (error instanceof ApiError && error.status === 404) {
        throw new TillError(
          'not found: no pending invitation has this token (it is invalid, already used or expired)',
          ExitCode.notFound,
          'a pending seat gets its invitation again with: till seats resend SEAT',
        )
      }
      throw error
    })
    await this.writeOne('seat-claim-info', info, flags)
  }
}
