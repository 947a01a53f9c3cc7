import {Args, Flags} from '@oclif/core'

import {BaseCommand} from '../areas/command.js'
import {paidCheckoutUrl, recipeFor, RECIPES, TRIGGERABLE, type Made, type TriggerKit} from '../areas/webhooks/trigger.js'
import {overridesOf, triggerableEvents, triggerEvent, type TriggerableEvent} from '../areas/webhooks/trigger-service.js'
import {ExitCode, TillError, usageError} from '../client/till-error.js'
import {organizationId} from '../client/resources/organizations.js'
import {nearestName} from '../cli/suggest.js'
import {isEmulated} from '../areas/emulator/control.js'

type Result =
  | Record<string, unknown>
  | TriggerableEvent[]
  | {event: string; webhook_event_id: string; delivered: boolean}
  | {event: string; environment: string; made: Made}
  | Array<{events: string[]; summary: string}>

export default class Trigger extends BaseCommand {
  static override summary = 'Send a webhook event to till listen: a sample payload the service builds, or (--through-api) the real thing.'
  static override description =
    `Asks the service (or the emulator) for a sample payload of the event, as the service's own CLI does (polar trigger), and sends it to the organization's listen stream: run till listen in another terminal first (with --forward-to to reach your server). Nothing is created: the payload's objects exist only in it, and it carries the header x-polar-triggered: true. It works on every environment, production included. --override path=value changes a field of the payload (a dotted path from its root, e.g. data.amount; the value is read as JSON where it reads, else as text; repeatable), --seed N gives the same ids every time, --json prints the payload and sends nothing, and --list shows what can be triggered. When nothing is listening it exits 1 naming the till listen command to run; a refused override exits 2 naming its path.

--through-api makes the event happen instead, by doing through the API what causes it (creating, buying, cancelling or refunding as needed, so that the service itself emits the event and the ones that come with it), on the local emulator or in sandbox; production is refused. It leaves what it made behind: products and a benefit the recipes need are created once, marked with till_trigger metadata, and reused. With the local profile the emulator must be running (till emulator start). Sandbox cannot pay a checkout through the API (a person enters a test card), so there purchases use a free product and refund events cannot be made; on a terminal till offers the checkout URL of a paid product instead. The ids of what was made go to stdout (--json: one object); --list --through-api shows what each event's recipe does.`
  static override enableJsonFlag = true
  static override examples = [
    {description: 'A sample order.paid, to the till listen running in another terminal', command: '<%= config.bin %> <%= command.id %> order.paid'},
    {
      description: 'With fields of your own, and the same ids every time',
      command: '<%= config.bin %> <%= command.id %> order.paid --override data.total_amount=4200 --override data.customer.email=ada@example.com --seed 7',
    },
    {description: 'The payload alone, sent nowhere', command: '<%= config.bin %> <%= command.id %> subscription.canceled --json | jq .data.id'},
    {description: 'What can be triggered', command: '<%= config.bin %> <%= command.id %> --list'},
    {
      description: 'A real paid order on the emulator: order.created, order.updated, order.paid',
      command: '<%= config.bin %> <%= command.id %> order.paid --through-api',
    },
  ]

  static override args = {event: Args.string({description: 'Event type to trigger, e.g. order.paid (see --list).'})}
  static override flags = {
    list: Flags.boolean({description: 'List the events that can be triggered (with --through-api: what each recipe does).'}),
    override: Flags.string({
      description: 'path=value: set a field of the payload (dotted path from its root; the value as JSON where it reads). Repeatable.',
      multiple: true,
      // one value per --override: the event may come after it
      multipleNonGreedy: true,
    }),
    seed: Flags.integer({description: "Seed of the payload's ids and numbers: the same seed gives the same payload."}),
    'through-api': Flags.boolean({description: 'Cause the event with real objects through the API (creates what it needs, and leaves it behind).'}),
  }

  async run(): Promise<Result> {
    const {args, flags} = await this.parseWithGlobals(Trigger)
    if (flags['through-api']) {
      if (flags.override || flags.seed !== undefined)
        throw usageError('--override and --seed shape a sample payload: they do not go with --through-api', 'drop --through-api to send a sample payload')
      return this.throughApi(args.event, flags.list)
    }
    if (!args.event && !flags.list)
      throw usageError('name the event to trigger, e.g.: till trigger order.paid', 'the events that can be triggered: till trigger --list')
    const overrides = overridesOf(flags.override)
    const deliver = !flags.list && !this.jsonEnabled()
    // delivered, the event goes to the listen stream of a running emulator: one run inside this command has none
    if (deliver) this.ctx.needsSharedEmulator = 'till trigger needs a running emulator, since it sends the event to the till listen listening to it'
    const client = await this.ctx.client()
    if (flags.list) {
      const events = await triggerableEvents(client)
      if (!this.jsonEnabled()) {
        const width = Math.max(0, ...events.map((e) => e.type.length))
        for (const e of events)
          this.ctx.io.stdout.write(this.ctx.io.stdoutIsTTY ? `${e.type.padEnd(width)}  ${e.description}\n` : `${e.type}\t${e.description}\n`)
      }
      return events
    }
    const event = args.event!
    const where = {organizationId: await organizationId(client, this.ctx.profile.organizationId), profile: this.ctx.profile.name}
    const answer = await triggerEvent(client, where, {event, overrides, seed: flags.seed ?? null, deliver})
    if (!deliver) return answer.payload
    this.ctx.note(`Sent ${answer.event} to the listen stream (webhook event ${answer.webhook_event_id}); nothing was created.`)
    this.ctx.io.stdout.write(`${answer.webhook_event_id}\n`)
    return {event: answer.event, webhook_event_id: answer.webhook_event_id, delivered: answer.delivered}
  }

  /** The event made to happen through the API: the recipe's real objects, left behind. */
  private async throughApi(event: string | undefined, list: boolean): Promise<Result> {
    if (list) {
      if (!this.jsonEnabled()) for (const r of RECIPES) this.ctx.io.stdout.write(`${r.events.join(', ')}\n    ${r.summary}\n`)
      return RECIPES.map(({events, summary}) => ({events, summary}))
    }
    if (!event)
      throw usageError(
        'name the event to trigger, e.g.: till trigger order.paid --through-api',
        `events: ${TRIGGERABLE.join(', ')} (till trigger --list --through-api says what each does)`,
      )
    const recipe = recipeFor(event)
    if (!recipe) {
      const meant = nearestName(event, TRIGGERABLE)
      throw usageError(
        `till cannot trigger "${event.slice(0, 60)}" through the API${meant ? `; did you mean ${meant}?` : ''}`,
        `events: ${TRIGGERABLE.join(', ')}`,
      )
    }
    const profile = this.ctx.profile
    // a profile on an emulator's address is the emulator, whatever its environment is called
    const environment = isEmulated(profile) ? 'local' : profile.environment
    if (environment === 'production') {
      throw usageError(
        `till trigger --through-api makes real orders, customers and refunds, so it does not run on production (profile "${profile.name}")`,
        'use the local emulator (--profile local) or a sandbox profile, or drop --through-api to send a sample payload',
      )
    }
    this.ctx.needsSharedEmulator =
      'till trigger --through-api needs a running emulator, since the events of one run inside this command would reach no listener (till listen)'
    const kit: TriggerKit = {
      client: await this.ctx.client(),
      anonymous: await this.ctx.anonymousClient(),
      environment,
      step: (line) => this.ctx.note(line),
    }
    if (environment === 'sandbox' && recipe.needsPayment) return this.sandboxPayment(kit, event)
    if (environment === 'sandbox' && /^(order|subscription|benefit_grant)\./.test(event)) {
      this.ctx.note('Sandbox cannot pay a checkout through the API (a person enters a test card): using a free product instead.')
    }
    const made: Made = {}
    await recipe.run(kit, made)
    this.ctx.note(
      `Done: the ${environment === 'local' ? 'emulator' : 'service'} emits ${recipe.events.includes(event) ? event : 'the event'} (see: till listen).`,
    )
    if (!this.jsonEnabled()) {
      // kind and id, tab-separated when piped; aligned on a terminal
      const entries = Object.entries(made)
      const width = this.ctx.io.stdoutIsTTY ? Math.max(0, ...entries.map(([kind]) => kind.length)) : 0
      for (const [kind, id] of entries) this.ctx.io.stdout.write(width ? `${kind.padEnd(width)}  ${id}\n` : `${kind}\t${id}\n`)
    }
    return {event, environment: profile.environment, made}
  }

  /** Refund events need a paid order: in sandbox only a person can pay one. */
  private async sandboxPayment(kit: TriggerKit, event: string): Promise<never> {
    const why = `${event} needs a paid order, and sandbox cannot pay a checkout through the API (a person enters a test card such as 4242 4242 4242 4242)`
    const nearest = "the nearest event till can make here is a free product's order: till trigger order.paid --through-api"
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
