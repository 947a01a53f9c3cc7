import {ownOrganization} from '../../client/resources/organizations.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'
import {PER_IP_BUDGET} from '../../cli/context.js'
import {organizationSummary} from '../../areas/customers/customers.js'

export default class OrgShow extends BaseCommand {
  static override summary = "Show the organization the profile's token belongs to, its environment and the rate budget in force."
  static override description =
    'The rate budget is the per-minute limit till paces requests to (the environment\'s default, or one set on the profile or in TILL_RATE_LIMIT), plus the per-IP limit of 100 requests per second. --json gives the API\'s organization object under "organization".'
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --profile sandbox --json']
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(OrgShow)
    const organization = await ownOrganization(await this.ctx.client())
    const summary = organizationSummary(organization, this.ctx.profile, PER_IP_BUDGET)
    const machine = flags.json || flags.output === 'json' || flags.output === 'jsonl'
    await this.writeOne('organization', machine ? summary.json : summary.view, flags)
  }
}
