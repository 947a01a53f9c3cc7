import {Args, Flags} from '@oclif/core'

import {listItems} from '../client/resources/common.js'
import {BaseCommand, pageFlags} from '../areas/command.js'
import {usageError} from '../client/till-error.js'
import {fieldPairs, readInput} from '../cli/input/fields.js'
import {mayCarryCredentials, originOf} from '../client/origin.js'

const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const

export default class Api extends BaseCommand {
  static override summary = "Call any endpoint of the API with the profile's token, pacing and retries."
  static override description =
    `PATH is relative to the profile's base URL (e.g. /customers/ or /orders/ID/invoice). An absolute URL must be on the profile's API origin: the token goes nowhere else; --no-auth calls any URL without credentials. A GET follows redirects on the same origin; any other redirect fails (exit 1) naming the status and Location, and a body is never sent again. Fields given with -f (text) or -F (typed: numbers, true, false, null, JSON) become query parameters for GET and DELETE, and the JSON body otherwise; --input sends a JSON file (or - for stdin) as the body. On a terminal the answer is indented and coloured; piped it is one line of JSON. With --paginate a GET list is read page by page and its items are printed as one JSON array (or JSON lines with -o jsonl).`
  static override examples = [
    '<%= config.bin %> <%= command.id %> GET /organizations/',
    {description: 'Every benefit grant, streamed as JSON lines', command: '<%= config.bin %> <%= command.id %> GET /benefit-grants/ --paginate -o jsonl'},
    {description: 'Create a customer', command: '<%= config.bin %> <%= command.id %> POST /customers/ -f email=ada@example.com -f name="Ada Lovelace"'},
    {description: 'Another site, without any credentials', command: '<%= config.bin %> <%= command.id %> GET https://example.com/status.json --no-auth'},
    {description: 'A body from a file', command: '<%= config.bin %> <%= command.id %> PATCH /products/ID --input product.json'},
  ]

  static override args = {
    method: Args.string({ignoreStdin: true, description: 'HTTP method.', required: true, options: [...METHODS, ...METHODS.map((m) => m.toLowerCase())]}),
    path: Args.string({ignoreStdin: true, description: 'Path relative to the base URL, e.g. /products/.', required: true}),
  }

  static override flags = {
    field: Flags.string({char: 'f', description: 'A text field, key=value (repeatable).', multiple: true}),
    'typed-field': Flags.string({
      char: 'F',
      description: 'A typed field, key=value: numbers, true, false, null and JSON are parsed (repeatable).',
      multiple: true,
    }),
    input: Flags.string({description: 'JSON file to send as the body, or - for stdin.'}),
    paginate: Flags.boolean({description: 'Read every page of a GET list and print its items.'}),
    output: Flags.option({char: 'o', options: ['json', 'jsonl'] as const, description: 'With --paginate: one JSON array (default) or JSON lines.'})(),
    limit: pageFlags.limit,
    'no-auth': Flags.boolean({description: "Send no credentials (required for a URL outside the profile's API origin)."}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(Api)
    const method = args.method.toUpperCase()
    const fields = fieldPairs(flags.field, flags['typed-field'], 'e.g. -f name=Ada or -F limit=100')
    const inQuery = method === 'GET' || method === 'DELETE'
    if (flags.input && inQuery) throw usageError(`--input sends a body, which ${method} does not take`)
    const body = flags.input ? await readInput(flags.input) : inQuery || Object.keys(fields).length === 0 ? undefined : fields
    const query = inQuery ? (fields as Record<string, string>) : undefined
    const client = await this.ctx.client()
    if (/^[a-z][a-z0-9+.-]*:/i.test(args.path)) {
      let absolute: URL
      try {
        absolute = new URL(args.path)
      } catch {
        throw usageError(`"${args.path}" is not a URL`, 'give a path such as /products/ or a full https:// URL')
      }
      if (absolute.protocol !== 'http:' && absolute.protocol !== 'https:') throw usageError(`"${args.path}" is not an http(s) URL`)
      if (!flags['no-auth'] && !mayCarryCredentials(absolute, client.baseUrl)) {
        throw usageError(
          `${absolute.origin} is not the profile's API origin (${originOf(client.baseUrl)}); the token is sent nowhere else`,
          'give a path such as /products/, or add --no-auth to call that URL without credentials',
        )
      }
    }
    const auth = flags['no-auth'] ? 'none' : 'token'
    const out = this.ctx.io.stdout
    if (flags.paginate) {
      if (method !== 'GET') throw usageError('--paginate works with GET only')
      const output = await import('../cli/output/index.js')
      const writer = output.createListWriter({format: flags.output ?? 'json', out, tty: this.ctx.io.stdoutIsTTY, color: false})
      // api-coverage: any path (the user's)
      await output.writeList(listItems(client, args.path, query ?? {}, this.pageOptions({all: true, limit: flags.limit})), writer)
      return
    }
    // api-coverage: any path (the user's)
    const response = await client.request(method, args.path, {query, body, auth})
    if (response.status === 204 || response.body === null) return
    if (typeof response.body === 'string' || !this.ctx.io.stdoutIsTTY) {
      out.write(`${typeof response.body === 'string' ? response.body : JSON.stringify(response.body)}\n`)
      return
    }
    // on a terminal, indented and coloured as gh does; piped, one line as the service sent it
    const {colorEnabled, chalkFor} = await import('../cli/output/index.js')
    const {colorJson} = await import('../cli/output/json-color.js')
    const color = colorEnabled({flag: flags.color, env: process.env, isTTY: true})
    out.write(`${colorJson(response.body, chalkFor(color))}\n`)
  }
}
