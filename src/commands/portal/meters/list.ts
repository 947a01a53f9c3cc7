import {Flags} from '@oclif/core'

import {outputFlags, pageFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'
import {listPortalMeters} from '../../../client/resources/meters.js'

export default class PortalMetersList extends PortalCommand {
  static override summary = "The signed-in customer's meters: units consumed, credited and the balance."
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --as-customer usr_00001 --json']

  static override flags = {
    ...outputFlags,
    ...pageFlags,
    meter: Flags.string({description: 'Only this meter id (repeatable).', multiple: true}),
    query: Flags.string({description: 'Only meters whose name contains this text.'}),
    sort: Flags.string({
      description: 'Sort keys, comma-separated; a leading - sorts descending (created_at, modified_at, meter_name, consumed_units, credited_units, balance).',
    }),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(PortalMetersList)
    const items = listPortalMeters(
      await this.portalClient(flags),
      {meterId: flags.meter, query: flags.query, sorting: flags.sort?.split(',')},
      this.pageOptions(flags),
    )
    await this.writeList('portal-meters', items, flags)
  }
}
