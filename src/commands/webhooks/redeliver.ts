import {Args} from '@oclif/core'

import {redeliverEvent} from '../../client/resources/webhooks.js'
import {BaseCommand, bulkWriteFlags, outputFlags} from '../../areas/command.js'

export default class WebhooksRedeliver extends BaseCommand {
  static override summary = 'Send a webhook event again to its endpoint.'
  static override description =
    'The service queues a new delivery of the same event (same id and body, signed again); it shows up in till webhooks deliveries list. Give - as EVENT_ID to send again every event id read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d',
    {
      description: 'Send again every failed delivery of the last day',
      command:
        "<%= config.bin %> webhooks deliveries list --no-succeeded --since 2026-11-22 --all -o jsonl | jq -c '{id: .webhook_event.id}' | <%= config.bin %> <%= command.id %> -",
    },
  ]

  static override args = {eventId: Args.string({ignoreStdin: true, description: 'Webhook event id, or - to read ids from stdin.', required: true})}
  static override flags = {...outputFlags, ...bulkWriteFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(WebhooksRedeliver)
    const client = await this.ctx.client()
    await this.eachId(
      args.eventId,
      flags,
      async (id) => {
        await redeliverEvent(client, id)
        return {id, redelivery: 'queued'}
      },
      async (result) => {
        if (this.jsonEnabled() || flags.output) await this.writeOne('redelivered', result, flags)
        else this.ctx.note(`Queued a new delivery of event ${result.id}.`)
      },
    )
  }
}
