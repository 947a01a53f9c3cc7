import {Flags} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {AtomicFile, pullCatalog, sectionsText} from '../../areas/catalog-file/session.js'
import {sinkFor} from '../../cli/output/sink.js'
import {checkWritableTarget} from '../../client/fs-problem.js'

export default class CatalogPull extends BaseCommand {
  static override summary = "Write the organization's catalog to one readable YAML file."
  static override description =
    `Meters, custom fields, benefits, products (their prices in major units with their currency, their benefits, custom fields and metered prices' meters by key), discounts, checkout links and webhook endpoints as one YAML file to review, keep in version control and apply to another environment with "till catalog apply". Each object is named by a stable key: the "key" entry of its metadata, or, for an object that has none yet, a key derived from its name (apply records it). Environment ids and secrets never appear in the file (a webhook endpoint's signing secret is left out). Archived meters and products and disabled webhook endpoints are left out.

What the file does not express yet is left out with a warning (apply keeps it): a downloadables benefit (it names uploaded files of its environment) and a product with a seat-based price.`
  static override examples = [
    {description: 'Pull the sandbox catalog into a file', command: '<%= config.bin %> <%= command.id %> -p sandbox --out catalog.yaml'},
    {
      description: 'Compare the catalogs of two environments',
      command: 'diff <(<%= config.bin %> <%= command.id %> -p sandbox) <(<%= config.bin %> <%= command.id %> -p production)',
    },
  ]

  static override flags = {
    out: Flags.string({char: 'O', description: 'Write the file here (default: stdout).'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(CatalogPull)
    if (flags.out !== undefined && flags.out !== '-') checkWritableTarget(flags.out, '--out')
    const client = await this.ctx.client()
    if (flags.out === undefined || flags.out === '-') {
      const stdout = sinkFor(this.ctx.io.stdout)
      const {problems} = await pullCatalog(client, (text) => stdout.write(text))
      for (const problem of problems) this.ctx.note(`Warning: ${problem}`)
      return
    }
    const file = new AtomicFile(flags.out)
    let pulled: Awaited<ReturnType<typeof pullCatalog>>
    try {
      pulled = await pullCatalog(client, (text) => file.write(text))
      file.commit()
    } catch (error) {
      file.abandon()
      throw error
    }
    const {counts, problems} = pulled
    for (const problem of problems) this.ctx.note(`Warning: ${problem}`)
    const summary = sectionsText(counts)
    this.ctx.note(`Wrote ${summary} from profile ${this.ctx.profile.name} (${this.ctx.profile.environment}) to ${flags.out}.`)
  }
}
