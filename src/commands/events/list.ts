import {Flags} from '@oclif/core'

import {BaseCommand, outputFlags, pageFlags} from '../../areas/command.js'
import {eventFilterFlags, filterText} from '../../areas/usage/flags.js'
import {followEvents} from '../../areas/usage/follow.js'
import {timeFlag} from '../../areas/sales/input.js'
import {nowFor} from '../../cli/input/when.js'
import {listEvents, type EventFilters} from '../../client/resources/events.js'
import {MAX_TIMER_SECONDS} from '../../client/timer.js'
import {usageError} from '../../client/till-error.js'

export default class EventsList extends BaseCommand {
  static override summary = 'List events, newest first; --follow prints new ones as they arrive.'
  static override description =
    `Filters combine. --follow prints the latest events, then every new one (by event time) until Ctrl-C: JSON lines when piped, one line per event on a terminal.`
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> --name api.call --external-customer usr_00001',
    {
      description: 'Events of one meter in a period, as CSV',
      command:
        '<%= config.bin %> <%= command.id %> --meter 5c8e1a2b-3d4f-4a6b-8c9d-0e1f2a3b4c5d --since 2026-01-01T00:00:00Z --until 2026-02-01T00:00:00Z --all -o csv',
    },
    {description: 'Watch events arrive', command: '<%= config.bin %> <%= command.id %> --follow --name api.call'},
  ]

  static override flags = {
    ...outputFlags,
    ...pageFlags,
    ...eventFilterFlags,
    sort: Flags.string({description: 'timestamp or -timestamp (default).'}),
    follow: Flags.boolean({char: 'f', description: 'Keep printing new events until Ctrl-C.'}),
    // a timer's delay: past MAX_TIMER_SECONDS it would fire at once
    interval: Flags.integer({description: 'With --follow: seconds between checks.', default: 2, min: 1, max: MAX_TIMER_SECONDS}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(EventsList)
    const client = await this.ctx.client()
    const now = await nowFor(this.ctx.clock.now, {'--since': flags.since, '--until': flags.until})
    const filters: EventFilters = {
      name: flags.name,
      customerId: flags.customer,
      externalCustomerId: flags['external-customer'],
      meterId: flags.meter,
      source: flags.source,
      start: flags.since === undefined ? undefined : timeFlag(flags.since, '--since', false, now),
      end: flags.until === undefined ? undefined : timeFlag(flags.until, '--until', true, now),
      filter: flags.filter === undefined ? undefined : filterText(flags.filter),
      metadata: flags.metadata,
      sorting: flags.sort?.split(','),
    }
    if (filters.start && filters.end && filters.start > filters.end)
      throw usageError(`--since ${flags.since} is after --until ${flags.until}`, 'give a --since before --until')
    if (flags.follow) {
      const json = this.jsonEnabled() || !this.ctx.io.stdoutIsTTY || flags.output === 'jsonl' || flags.output === 'json'
      await followEvents(client, filters, {intervalMs: flags.interval * 1000, backlog: flags.limit ?? 10, json, out: this.ctx.io.stdout})
      return
    }
    await this.writeList('events', listEvents(client, filters, this.pageOptions(flags)), flags)
  }
}
