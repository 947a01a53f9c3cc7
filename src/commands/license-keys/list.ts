import {Flags} from '@oclif/core'

import {LICENSE_KEY_STATUSES, listLicenseKeys} from '../../client/resources/license-keys.js'
import {BaseCommand, outputFlags, pageFlags} from '../../areas/command.js'

export default class LicenseKeysList extends BaseCommand {
  static override summary = 'List license keys, newest first.'
  static override description = 'Keys are shown masked (display_key); the full key is in the key field (--columns key, or --json).'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {
      description: 'Revoked keys of one benefit, as JSON lines',
      command: '<%= config.bin %> <%= command.id %> --benefit 0c8d6a3e-8f1b-4c2a-9e7d-5b4a3c2d1e0f --status revoked --all -o jsonl',
    },
  ]

  static override flags = {
    ...outputFlags,
    ...pageFlags,
    benefit: Flags.string({description: 'Only keys of this license-key benefit id.'}),
    status: Flags.option({options: LICENSE_KEY_STATUSES, description: 'Only keys in this status.'})(),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(LicenseKeysList)
    const client = await this.ctx.client()
    await this.writeList('license-keys', listLicenseKeys(client, {benefitId: flags.benefit, status: flags.status}, this.pageOptions(flags)), flags)
  }
}
