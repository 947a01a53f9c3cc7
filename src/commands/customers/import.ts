import {createReadStream} from 'node:fs'

import {Args, Flags} from '@oclif/core'

import {BaseCommand, outputFlags} from '../../areas/command.js'
import {importCustomer, readCustomerLines, type ImportInput} from '../../areas/customers/import.js'
import {ExitCode, TillError, usageError} from '../../client/till-error.js'
import {checkReadableFile} from '../../client/fs-problem.js'

export default class CustomersImport extends BaseCommand {
  static override summary = 'Create or update customers from JSON lines: safe to run again.'
  static override description =
    'Each line is a customer: {"email", "name", "external_id", "billing_address", "tax_id", "metadata", "locale"}. A customer that exists (by external_id, else by email) is updated with what differs, or left as it is; any other is created. Running the same file again creates nothing; a creation whose answer was lost is looked up, never made twice. Every line is checked before the first request: UTF-8 (a byte order mark is taken), the types and sizes of the fields as the service takes them, and each external id and e-mail once. A customer another import made meanwhile is found, not an error. One result per line on stdout, a summary on stderr; exit 1 when a line failed, 7 when an outcome is unknown.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> customers.jsonl',
    {description: 'From a pipe, as JSON lines of results', command: 'cat customers.jsonl | <%= config.bin %> <%= command.id %> - -o jsonl'},
  ]

  static override args = {file: Args.string({description: 'JSON lines file of customers, or - for stdin.', required: true, ignoreStdin: true})}
  static override flags = {
    ...outputFlags,
    concurrency: Flags.integer({description: 'Customers in flight at once (within the rate budget).', default: 4, min: 1, max: 16}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(CustomersImport)
    if (args.file === '-' && this.ctx.io.stdinIsTTY)
      throw usageError('"-" reads customers from stdin, but stdin is a terminal', 'pipe JSON lines in, or give a file')
    if (args.file !== '-') checkReadableFile(args.file, 'give the path of a JSON lines file of customers, or - for stdin', {streams: true})
    const name = args.file === '-' ? 'stdin' : args.file
    const inputs = await readCustomerLines(args.file === '-' ? process.stdin : createReadStream(args.file), name)
    const client = await this.ctx.client()
    const {runEach} = await import('../../cli/bulk.js')
    const byKey = new Map<string, ImportInput>(inputs.map((i) => [String(i.line), i]))
    const counts = {created: 0, updated: 0, unchanged: 0, failed: 0, unknown: 0}
    const results = async function* (where: Parameters<typeof runEach>[2]) {
      for await (const r of runEach(byKey.keys(), (key) => importCustomer(client, byKey.get(key)!), where, flags.concurrency)) {
        if (r.ok && r.result) counts[r.result.action]++
        else if (r.error?.exit_code === ExitCode.unknown) counts.unknown++
        else counts.failed++
        yield {line: Number(r.id), ok: r.ok, result: r.result, error: r.error}
      }
    }
    await this.writeList('customer-imports', results(this.errorContext()), flags)
    const total = inputs.length
    this.ctx.note(
      `${total} customer${total === 1 ? '' : 's'}: ${counts.created} created, ${counts.updated} updated, ${counts.unchanged} unchanged, ${counts.failed} failed${counts.unknown ? `, ${counts.unknown} unknown` : ''}.`,
    )
    if (counts.failed > 0) throw new TillError(`${counts.failed} of ${total} failed (see the errors above)`, ExitCode.error)
    if (counts.unknown > 0)
      throw new TillError(
        `${counts.unknown} of ${total} may or may not have been done (see above)`,
        ExitCode.unknown,
        'run the same import again: what was done is found',
      )
  }
}
