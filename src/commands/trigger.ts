import {Args, Flags} from '@oclif/core'

import {BaseCommand} from '../areas/command.js'
import {paidCheckoutUrl, recipeFor, RECIPES, TRIGGERABLE, type Made, type TriggerKit} from '../areas/webhooks/trigger.js'
import {ExitCode, TillError, usageError} from '../client/till-error.js'
import {nearestName} from '../cli/suggest.js'

export default class Trigger extends BaseCommand {
  static override summary = 'Make the environment emit a webhook event, by doing through the API what causes it.'
  static override description =
    `Creates, buys, cancels or refunds as needed so that the service itself emits the event (and the ones that come with it), on the local emulator or in sandbox; production is refused. Watch the events with: till listen. With the local profile the emulator must be running (till emulator start), since the events of an emulator run inside this command would reach no listener. Products and a benefit the recipes need are created once, marked with till_trigger metadata, and reused.

Sandbox cannot pay a checkout through the API (a person enters a test card), so there purchases use a free product and refund events cannot be made; on a terminal till offers the checkout URL of a paid product instead. --list shows what each event's recipe does. The ids of what was made go to stdout (--json: one object).`
  static override enableJsonFlag = true
  static override examples = [
    {description: 'A paid order: order.created, order.updated, order.paid', command: '<%= config.bin %> <%= command.id %> order.paid'},
    {description: 'A canceled subscription, in sandbox', command: '<%= config.bin %> <%= command.id %> subscription.canceled --profile sandbox'},
    {description: 'What each event does', command: '<%= config.bin %> <%= command.id %> --list'},
  ]

  static override args = {event: Args.string({description: 'Event type to cause, e.g. order.paid (see --list).'})}
  static override flags = {list: Flags.boolean({description: 'List the events till can trigger and what each does.'})}

  async run(): Promise<{event: string; environment: string; made: Made} | Array<{events: string[]; summary: string}>> {
    const {args, flags} = await this.parseWithGlobals(Trigger)
    if (flags.list) {
      if (!this.jsonEnabled()) for (const r of RECIPES) this.ctx.io.stdout.write(`${r.events.join(', ')}\n    ${r.summary}\n`)
      return RECIPES.map(({events, summary}) => ({events, summary}))
    }
    if (!args.event)
      throw usageError(
        'name the event to trigger, e.g.: till trigger order.paid',
        `events: ${TRIGGERABLE.join(', ')} (till trigger --list says what each does)`,
      )
    const recipe = recipeFor(args.event)
    if (!recipe) {
      const meant = nearestName(args.event, TRIGGERABLE)
      throw usageError(`till cannot trigger "${args.event.slice(0, 60)}"${meant ? `; did you mean ${meant}?` : ''}`, `events: ${TRIGGERABLE.join(', ')}`)
    }
    const profile = this.ctx.profile
    if (profile.environment === 'production') {
      throw usageError(
        `till trigger makes real orders, customers and refunds, so it does not run on production (profile "${profile.name}")`,
        'use the local emulator (--profile local) or a sandbox profile',
      )
    }
    this.ctx.needsSharedEmulator =
      'till trigger needs a running emulator, since the events of one run inside this command would reach no listener (till listen)'
    const kit: TriggerKit = {
      client: await this.ctx.client(),
      anonymous: await this.ctx.anonymousClient(),
      environment: profile.environment,
      step: (line) => this.ctx.note(line),
    }
    if (profile.environment === 'sandbox' && recipe.needsPayment) return this.sandboxPayment(kit, args.event)
    if (profile.environment === 'sandbox' && /^(order|subscription|benefit_grant)\./.test(args.event)) {
      this.ctx.note('Sandbox cannot pay a checkout through the API (a person enters a test card): using a free product instead.')
    }
    const made: Made = {}
    await recipe.run(kit, made)
    this.ctx.note(
      `Done: the ${profile.environment === 'local' ? 'emulator' : 'service'} emits ${recipe.events.includes(args.event) ? args.event : 'the event'} (see: till listen).`,
    )
    if (!this.jsonEnabled()) {
      // kind and id, tab-separated when piped; aligned on a terminal
      const entries = Object.entries(made)
      const width = this.ctx.io.stdoutIsTTY ? Math.max(0, ...entries.map(([kind]) => kind.length)) : 0
      for (const [kind, id] of entries) this.ctx.io.stdout.write(width ? `${kind.padEnd(width)}  ${id}\n` : `${kind}\t${id}\n`)
    }
    return {event: args.event, environment: profile.environment, made}
  }

  /** Refund events need a paid order: in sandbox only a person can pay one. */
  private async sandboxPayment(kit: TriggerKit, event: string): Promise<never> {
    const why = `${event} needs a paid order, and sandbox cannot pay a checkout through the API (a person enters a test card such as 4242 4242 4242 4242)`
    const nearest = "the nearest event till can make here is a free product's order: till trigger order.paid"
    if (!this.prompter.interactive) throw new TillError(why, ExitCode.error, nearest)
    const url = await paidCheckoutUrl(kit)
    this.ctx.note(`${why}.\nPay this checkout in a browser, then refund its order with: till refunds create --order ORDER_ID\n  ${url}`)
    if (
      await this.prompter.confirm('open the checkout in your browser', {yes: false, environment: 'sandbox', profile: this.ctx.profile.name}).then(
        () => true,
        () => false,
      )
    ) {
      const {spawn} = await import('node:child_process')
      spawn(process.platform === 'darwin' ? 'open' : 'xdg-open', [url], {stdio: 'ignore', detached: true})
        .on('error', () => {})
        .unref()
    }
    throw new TillError(`${event} was not triggered`, ExitCode.error, nearest)
  }
}
