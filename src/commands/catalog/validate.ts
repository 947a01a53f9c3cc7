import {Args} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {loadCatalogAsync} from '../../areas/catalog-file/read.js'
import {sectionsText} from '../../areas/catalog-file/session.js'

export default class CatalogValidate extends BaseCommand {
  static override summary = 'Check a catalog file alone, without reading any environment.'
  static override description =
    `Checks the YAML syntax, each section and entry against the format, the keys, the references between keys (a product's benefits, custom fields and meters, a meter credit's meter, a discount's or a checkout link's products), and money (amounts in major units, no more decimals than the currency has, a currency the service takes, the price mixes the service allows). Every problem is printed on stderr with its line number; the exit code is 2 when there is any, 0 otherwise. Nothing is sent.`
  static override examples = ['<%= config.bin %> <%= command.id %> catalog.yaml', 'cat catalog.yaml | <%= config.bin %> <%= command.id %> -']

  static override args = {file: Args.string({description: 'Catalog file, or - for stdin.', required: true, ignoreStdin: true})}

  async run(): Promise<void> {
    const {args} = await this.parseWithGlobals(CatalogValidate)
    const catalog = await loadCatalogAsync(args.file, (line) => this.ctx.debug(line))
    const counts = sectionsText(Object.fromEntries(Object.entries(catalog).map(([section, entries]) => [section, Object.keys(entries).length])))
    this.ctx.note(`${args.file === '-' ? 'stdin' : args.file} is a valid catalog: ${counts}.`)
  }
}
