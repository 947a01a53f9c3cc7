import {Args, Flags} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {controlPost, requireEmulator} from '../../areas/emulator/control.js'
import {migratedLine} from '../../areas/emulator/summaries.js'

export default class EmulatorMigrateSubscription extends BaseCommand {
  static override summary = 'Put a subscription through the cutover of an imported one, on the emulator.'
  static override description =
    "Uses the emulator's control surface (outside /v1), since the service migrates imported subscriptions itself, at their cutover: the emulator imports none, so one of its live subscriptions stands in for one. It sends subscription.migrated, whose payload names --provider and --provider-subscription-id at its top level beside data, then subscription.updated, and records the system event subscription.migrated (till events list). A subscription migrates once. Prints one line; --json prints the subscription."
  static override examples = [
    '<%= config.bin %> <%= command.id %> 3f0c1a2b-4d5e-4f60-8a9b-0c1d2e3f4a5b --provider stripe --provider-subscription-id sub_1PqR2sT3uV4wX5yZ',
  ]

  static override enableJsonFlag = true
  static override args = {subscription: Args.string({description: 'Subscription id.', required: true})}
  static override flags = {
    provider: Flags.string({description: 'The provider it came from (e.g. stripe).', required: true}),
    'provider-subscription-id': Flags.string({
      description: "The subscription's id at that provider (e.g. sub_...).",
      required: true,
    }),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(EmulatorMigrateSubscription)
    requireEmulator(this.ctx.profile)
    const [provider, providerId] = [flags.provider, flags['provider-subscription-id']]
    const path = `/subscriptions/${encodeURIComponent(args.subscription)}/migrate`
    const body = {provider, provider_subscription_id: providerId}
    const s = await controlPost<Record<string, unknown>>(await this.ctx.client(), path, body)
    this.ctx.io.stdout.write(
      this.jsonEnabled() ? `${JSON.stringify(s, null, this.ctx.io.stdoutIsTTY ? 2 : undefined)}\n` : `${migratedLine(s, provider, providerId)}\n`,
    )
  }
}
