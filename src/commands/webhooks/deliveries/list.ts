import {Flags} from '@oclif/core'

import {HTTP_CODE_CLASSES, listDeliveries} from '../../../client/resources/webhooks.js'
import {BaseCommand, outputFlags, pageFlags} from '../../../areas/command.js'
import {WEBHOOK_EVENTS} from '../../../areas/webhooks/endpoints.js'
import {timeFlag} from '../../../areas/sales/input.js'
import {nowFor, WHEN_HELP} from '../../../cli/input/when.js'

export default class WebhooksDeliveriesList extends BaseCommand {
  static override summary = 'List webhook delivery attempts, newest first: which events reached which endpoint, with the HTTP answer.'
  static override description =
    'Each attempt to send an event to an endpoint is a delivery. Filters combine. Send a failed event again with: till webhooks redeliver EVENT_ID (the event id is in the Event ID column).'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {
      description: 'Failed deliveries of one endpoint since a date',
      command: '<%= config.bin %> <%= command.id %> --endpoint 1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d --no-succeeded --since 2026-11-01',
    },
    {
      description: 'Server errors on order.paid events, as JSON lines',
      command: '<%= config.bin %> <%= command.id %> --event-type order.paid --http-code-class 5xx --all -o jsonl',
    },
  ]

  static override flags = {
    ...outputFlags,
    ...pageFlags,
    endpoint: Flags.string({description: 'Only deliveries to this endpoint id (repeatable).', multiple: true}),
    succeeded: Flags.boolean({description: 'Only successful deliveries (--no-succeeded: only failed ones).', allowNo: true}),
    'event-type': Flags.option({options: WEBHOOK_EVENTS, description: 'Only deliveries of this event type (repeatable).', multiple: true})(),
    'http-code-class': Flags.option({options: HTTP_CODE_CLASSES, description: 'Only deliveries answered with this class of HTTP status.'})(),
    since: Flags.string({description: `Only deliveries from this time: ${WHEN_HELP}.`}),
    until: Flags.string({description: 'Only deliveries up to this time (a date: to its end).'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(WebhooksDeliveriesList)
    const now = await nowFor(this.ctx.clock.now, {'--since': flags.since, '--until': flags.until})
    const start = flags.since ? timeFlag(flags.since, '--since', false, now) : undefined
    const end = flags.until ? timeFlag(flags.until, '--until', true, now) : undefined
    const client = await this.ctx.client()
    const items = listDeliveries(
      client,
      {
        endpointId: flags.endpoint,
        succeeded: flags.succeeded,
        eventType: flags['event-type'],
        httpCodeClass: flags['http-code-class'],
        start,
        end,
      },
      this.pageOptions(flags),
    )
    await this.writeList('webhook-deliveries', items, flags)
  }
}
