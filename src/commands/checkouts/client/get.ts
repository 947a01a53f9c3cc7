import {Args} from '@oclif/core'

import {BaseCommand, outputFlags} from '../../../areas/command.js'
import {getClientCheckout} from '../../../client/resources/checkouts.js'

export default class CheckoutsClientGet extends BaseCommand {
  static override summary = 'Show a checkout as its buyer sees it, by its client secret (no token): the public fields only.'
  static override description =
    "The client secret is the last part of the checkout's URL (till checkouts get ID shows both). Sends no token: what anyone with the link sees, without metadata or the organization's fields."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> polar_c_7Xq2Lm9Nd4Rb8Ks1Vt6Wy3Zp0Ha5Jc2Ef8Gi4Ko1',
    "<%= config.bin %> <%= command.id %> polar_c_7Xq2Lm9Nd4Rb8Ks1Vt6Wy3Zp0Ha5Jc2Ef8Gi4Ko1 --json | jq '.total_amount'",
  ]

  static override args = {'client-secret': Args.string({description: "The checkout's client secret.", required: true, ignoreStdin: true})}
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(CheckoutsClientGet)
    await this.writeOne('checkouts', await getClientCheckout(await this.ctx.anonymousClient(), args['client-secret']), flags)
  }
}
