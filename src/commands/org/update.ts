import {Flags} from '@oclif/core'

import {ownOrganization, updateOrganization, type OrganizationUpdate} from '../../client/resources/organizations.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'
import {usageError} from '../../client/till-error.js'

export default class OrgUpdate extends BaseCommand {
  static override summary = "Change the organization's name, support email, website or avatar."
  static override description = 'Changes the organization the profile\'s token belongs to. --email "", --website "" and --avatar-url "" clear the value.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> --name "Acme Software" --email billing@acme.example',
    '<%= config.bin %> <%= command.id %> --website https://acme.example --profile sandbox --json',
  ]

  static override flags = {
    ...outputFlags,
    name: Flags.string({char: 'n', description: 'New name, 3-64 characters.'}),
    email: Flags.string({description: 'Support email shown to customers ("" clears it).'}),
    website: Flags.string({description: 'Website URL ("" clears it).'}),
    'avatar-url': Flags.string({description: 'Avatar image URL ("" clears it).'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(OrgUpdate)
    const clear = (value: string | undefined) => (value === '' ? null : value)
    if (flags.name !== undefined && (flags.name.length < 3 || flags.name.length > 64)) throw usageError('--name must be 3-64 characters')
    for (const flag of ['website', 'avatar-url'] as const) {
      const value = flags[flag]
      if (value && !/^https?:\/\/\S+$/.test(value)) throw usageError(`--${flag} must be a URL like https://acme.example, not "${value}"`)
    }
    const body: OrganizationUpdate = Object.fromEntries(
      Object.entries({name: flags.name, email: clear(flags.email), website: clear(flags.website), avatar_url: clear(flags['avatar-url'])}).filter(
        ([, v]) => v !== undefined,
      ),
    )
    if (Object.keys(body).length === 0) throw usageError('nothing to update', 'pass --name, --email, --website or --avatar-url')
    const client = await this.ctx.client()
    const org = await ownOrganization(client)
    await this.writeChanged('organization', await updateOrganization(client, org.id, body), flags)
  }
}
