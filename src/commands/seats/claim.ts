import {Args} from '@oclif/core'

import {claimSeat} from '../../client/resources/seats.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'
import {jsonFor} from '../../cli/output/format.js'

export default class SeatsClaim extends BaseCommand {
  static override summary = 'Claim a seat with its invitation token, as its holder does: the benefits are granted, and a customer session opens.'
  static override description =
    'The token is single-use. Prints the claimed seat; with --json, the seat and the customer session token of its holder (a portal token: pass it as TILL_CUSTOMER_TOKEN to the till portal commands).'
  static override enableJsonFlag = true
  static override tokenArgument = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 3q2-Xv9dY0s7kLmN4pQrStUvWxYz1a2B3c4D5e6F7g8',
    {
      description: "Claim, then list the holder's claimed subscriptions with the session token",
      command:
        'TILL_CUSTOMER_TOKEN=$(<%= config.bin %> <%= command.id %> 3q2-Xv9dY0s7kLmN4pQrStUvWxYz1a2B3c4D5e6F7g8 --json | jq -r .customer_session_token) <%= config.bin %> portal seats subscriptions',
    },
  ]

  static override args = {token: Args.string({description: 'The invitation token.', required: true, ignoreStdin: true})}
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(SeatsClaim)
    const claimed = await claimSeat(await this.ctx.client(), args.token)
    if (this.jsonEnabled()) {
      this.ctx.io.stdout.write(`${jsonFor(JSON.stringify(claimed, null, 2), this.ctx.io.stdoutIsTTY)}\n`)
      return
    }
    this.ctx.note("Claimed; the holder's customer session token is in the --json output (customer_session_token).")
    await this.writeChanged('customer-seats', claimed.seat, flags)
  }
}
