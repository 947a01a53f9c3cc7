import {Args} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {controlUrl, requireEmulator} from '../../areas/emulator/control.js'
import {checkUuid} from '../../client/ids.js'

export default class EmulatorSeatInvitation extends BaseCommand {
  static override summary = "Print a pending seat's invitation token, as the service e-mails it to the seat's holder."
  static override description =
    "Uses the emulator's control surface (outside /v1): the service never shows the token through the API, only in its e-mail. Prints the token alone, for till seats claim-info and till seats claim."
  static override examples = [
    '<%= config.bin %> <%= command.id %> 6a1f2e3d-4c5b-4a69-8e7d-0f1a2b3c4d5e',
    {
      description: 'Claim the seat as its holder would',
      command: '<%= config.bin %> seats claim $(<%= config.bin %> <%= command.id %> 6a1f2e3d-4c5b-4a69-8e7d-0f1a2b3c4d5e)',
    },
  ]

  static override args = {seat: Args.string({description: 'Pending seat id.', required: true})}

  async run(): Promise<void> {
    const {args} = await this.parseWithGlobals(EmulatorSeatInvitation)
    requireEmulator(this.ctx.profile)
    const seat = checkUuid(args.seat, 'seat id')
    const client = await this.ctx.client()
    const invitation = await client.get<{invitation_token: string}>(controlUrl(client.baseUrl, `/customer-seats/${seat}/invitation`))
    this.ctx.io.stdout.write(`${invitation.invitation_token}\n`)
  }
}
