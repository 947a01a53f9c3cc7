import {Args} from '@oclif/core'

import {outputFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'
import {ownOrganization} from '../../../client/resources/organizations.js'
import {getPortalOrganization} from '../../../client/resources/portal-account.js'
import {ExitCode, TillError, usageError} from '../../../client/till-error.js'

export default class PortalOrganizationShow extends PortalCommand {
  static override summary = "Show an organization's customer portal page: its portal settings and public recurring products."
  static override description =
    "Needs no customer token. Without SLUG, the organization of the profile's token is shown (its slug is looked up with the organization token)."
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %>', "<%= config.bin %> <%= command.id %> acme --json | jq '.products[].name'"]

  static override args = {slug: Args.string({description: "The organization's slug (default: the profile's organization).", ignoreStdin: true})}
  static override flags = {...outputFlags}

  /** The slug of the organization the profile's token belongs to; without such a token, SLUG is needed. */
  private async ownSlug(): Promise<string> {
    try {
      return (await ownOrganization(await this.ctx.client())).slug
    } catch (error) {
      if (error instanceof TillError && error.exitCode === ExitCode.auth) {
        throw usageError(`the organization's slug is needed: ${error.message}`, 'pass it: till portal organization show SLUG')
      }
      throw error
    }
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(PortalOrganizationShow)
    const slug = args.slug ?? (await this.ownSlug())
    await this.writeOne('portal-organization', await getPortalOrganization(await this.ctx.anonymousClient(), slug), flags)
  }
}
