import {Args} from '@oclif/core'

import {getLicenseKey} from '../../client/resources/license-keys.js'
import {BaseCommand, bulkFlags, outputFlags} from '../../areas/command.js'

export default class LicenseKeysGet extends BaseCommand {
  static override summary = 'Show one license key with its activations.'
  static override description = 'Give - as ID to read several ids from stdin (one per line or JSON lines with an id).'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d',
    {
      description: 'The activations of a key, as JSON',
      command: "<%= config.bin %> <%= command.id %> 8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d --json | jq '.activations'",
    },
  ]

  static override args = {
    id: Args.string({description: 'License key id (not the key itself), or - to read ids from stdin.', required: true, ignoreStdin: true}),
  }
  static override flags = {...outputFlags, ...bulkFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(LicenseKeysGet)
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      (id) => getLicenseKey(client, id),
      (key) => this.writeOne('license-keys', key, flags),
    )
  }
}
