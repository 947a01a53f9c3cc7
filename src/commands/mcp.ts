import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {Flags} from '@oclif/core'

import {BaseCommand} from '../areas/command.js'

export default class Mcp extends BaseCommand {
  static override summary = "Serve till's operations to an agent: an MCP server over stdio, on the active profile or -p NAME."
  static override description =
    `A tool per operation till sends (its input schema from the service's document; read tools marked read-only and idempotent), results as structured content with the fields --json prints, lists one page at a time (limit, page) with their pagination. On a local profile the emulator's control actions are tools too: the clock, pay, renew, a failed payment, a dispute, a reset.

The token is the profile's, from where till keeps it (the keyring or the config), never from the agent's configuration (a TILL_TOKEN in its environment is refused); the profile's rate budget is shared with every till command. On a production profile every write is refused unless --allow-production-writes is given. Refunds, cancels, revokes, deletes and the emulator's reset answer a dry run first and act only when called again with the dry run's confirm token. Errors say what their exit code means.

An agent skill ships with till: skills/till/SKILL.md in the package (how to drive till from an agent: --json, exit codes, --dry-run, --yes, bulk - input and --resume, the emulator first), and docs/mcp.md.`
  static override examples = [
    {description: 'On the emulator (an MCP client configuration runs this command)', command: '<%= config.bin %> <%= command.id %> -p local'},
    {description: 'Production, writes allowed', command: '<%= config.bin %> <%= command.id %> -p production --allow-production-writes'},
  ]
  static override flags = {
    'allow-production-writes': Flags.boolean({description: 'Let write tools act on a production profile (refused otherwise).'}),
  }

  // the server ends when its client closes stdin; Ctrl-C ends it as any command
  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(Mcp)
    const {serveMcp} = await import('../areas/mcp/server.js')
    await serveMcp({
      ctx: this.ctx,
      // dist/bundle: the build writes the tools beside the bundle (scripts/mcp-tools.js)
      bundleDir: join(dirname(fileURLToPath(import.meta.url)), '..'),
      version: this.config.version,
      allowProductionWrites: flags['allow-production-writes'],
    })
  }
}
