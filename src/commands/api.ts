import {STATUS_CODES} from 'node:http'
import {Writable} from 'node:stream'

import {Args, Flags} from '@oclif/core'

import {type PageResult, paginate} from '../client/paginate.js'
import type {Item} from '../client/resources/common.js'
import {BaseCommand, pageFlags} from '../areas/command.js'
import {usageError} from '../client/till-error.js'
import {fieldPairs, readInput} from '../cli/input/fields.js'
import {absoluteUrl, mayCarryCredentials, originOf} from '../client/origin.js'

const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const

export default class Api extends BaseCommand {
  static override summary = "Call any endpoint of the API with the profile's token, pacing and retries."
  static override description =
    `PATH is relative to the profile's base URL (e.g. /customers/ or /orders/ID/invoice; a leading /v1 is dropped, as the base URL ends in it; /_emulator/... reaches the local emulator's control routes). METHOD may be left out, as with gh api: GET, or POST when fields or --input are given; -X names it too. An absolute URL (http:// or https:// in any case, then the host: http:/x is refused) must be on the profile's API origin: the token goes nowhere else; --no-auth calls any URL without credentials. A GET follows redirects on the same origin; any other redirect fails (exit 1) naming the status and Location, and a body is never sent again. Fields given with -f (text) or -F (typed: numbers, true, false, null, JSON) become query parameters for GET and DELETE, and the JSON body otherwise; --input sends a JSON file (or - for stdin) as the body. On a terminal the answer is indented and coloured; piped it is one line of JSON. With --paginate a GET list is read page by page, to its first empty page (a page that repeats an earlier one is exit 6), and its items are printed as one JSON array (or JSON lines with -o jsonl). --limit N asks for a page of N items (with --paginate, the first N items).`
  static override examples = [
    '<%= config.bin %> <%= command.id %> /organizations/',
    {description: 'Five orders, as one page of the API', command: '<%= config.bin %> <%= command.id %> /orders/ --limit 5'},
    {description: 'Every benefit grant, streamed as JSON lines', command: '<%= config.bin %> <%= command.id %> GET /benefit-grants/ --paginate -o jsonl'},
    {description: 'Create a customer', command: '<%= config.bin %> <%= command.id %> POST /customers/ -f email=ada@example.com -f name="Ada Lovelace"'},
    {description: 'Another site, without any credentials', command: '<%= config.bin %> <%= command.id %> GET https://example.com/status.json --no-auth'},
    {description: 'A body from a file', command: '<%= config.bin %> <%= command.id %> PATCH /products/ID --input product.json'},
  ]

  static override args = {
    method: Args.string({ignoreStdin: true, description: 'HTTP method (default GET, or POST when fields or --input are given), or the path.'}),
    path: Args.string({ignoreStdin: true, description: 'Path relative to the base URL, e.g. /products/.'}),
  }

  static override flags = {
    method: Flags.string({char: 'X', description: 'HTTP method, as gh api -X (default GET, or POST when fields or --input are given).'}),
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
    header: Flags.string({
      char: 'H',
      description: "A request header, 'Name: value' (repeatable); never Authorization, which carries the profile's token.",
      multiple: true,
    }),
    include: Flags.boolean({char: 'i', description: "Print the answer's status line and headers before its body."}),
    silent: Flags.boolean({description: 'Print no body (the exit code still says whether the call worked).'}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(Api)
    const fields = fieldPairs(flags.field, flags['typed-field'], 'e.g. -f name=Ada or -F limit=100')
    const {method, path: given} = methodAndPath(
      args,
      flags.method,
      flags.input !== undefined || (Object.keys(fields).length > 0 && !flags.paginate && flags.limit === undefined),
    )
    // `till api products/` is `/products/`, as gh api takes `repos/...`
    let path = /^[a-z][a-z\d+.-]*:/i.test(given) || given.startsWith('/') ? given : `/${given}`
    const headers = requestHeaders(flags.header ?? [])
    const inQuery = method === 'GET' || method === 'DELETE'
    if (flags.input && inQuery) throw usageError(`--input sends a body, which ${method} does not take`)
    const body = flags.input ? await readInput(flags.input) : inQuery || Object.keys(fields).length === 0 ? undefined : fields
    const query = inQuery ? (fields as Record<string, string>) : undefined
    const client = await this.ctx.client()
    path = besideBase(path, client.baseUrl)
    if (flags.limit !== undefined && !flags.paginate) {
      if (method !== 'GET') throw usageError('--limit reads a GET list', 'drop it, or call the list with GET')
      if (flags.limit > 100)
        throw usageError(`--limit ${flags.limit}: a page holds at most 100 items`, `add --paginate to read ${flags.limit} items page by page`)
      query!.limit = String(flags.limit) // a page of that many
    }
    // the client's own rule of what is a URL (src/client/origin.ts), checked here before anything is sent
    const absolute = absoluteUrl(path)
    if (absolute && !flags['no-auth'] && !mayCarryCredentials(absolute, client.baseUrl)) {
      throw usageError(
        `${absolute.origin} is not the profile's API origin (${originOf(client.baseUrl)}); the token is sent nowhere else`,
        'give a path such as /products/, or add --no-auth to call that URL without credentials',
      )
    }
    const auth = flags['no-auth'] ? 'none' : 'token'
    const out = flags.silent ? new Writable({write: (_chunk, _encoding, done) => done()}) : this.ctx.io.stdout
    if (flags.paginate) {
      if (method !== 'GET') throw usageError('--paginate works with GET only')
      if (flags.include) throw usageError('--include shows the headers of one answer, and --paginate reads many', 'drop one of them')
      const output = await import('../cli/output/index.js')
      const writer = output.createListWriter({format: flags.output ?? 'json', out, tty: this.ctx.io.stdoutIsTTY, color: false})
      const pages = flags.limit === undefined || flags.limit > 100 ? {all: true, limit: flags.limit} : {all: true, limit: 100, 'max-items': flags.limit}
      // api-coverage: any path (the user's)
      const read = (page: number, limit: number, signal: AbortSignal) => client.get<PageResult<Item>>(path, {query: {...query, page, limit}, signal, headers})
      await output.writeList(paginate(read, {list: `GET ${path}`, ...this.pageOptions(pages)}), writer)
      return
    }
    // api-coverage: any path (the user's)
    const response = await client.request(method, path, {query, body, auth, headers})
    if (flags.include) this.ctx.io.stdout.write(statusAndHeaders(response.status, response.headers))
    if (response.status === 204 || response.body === null) return
    if (typeof response.body === 'string' || !this.ctx.io.stdoutIsTTY || flags.silent) {
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

/**
 * The method and path of `till api [METHOD] PATH`: as gh api, the method may be left out (GET, or POST when a
 * body is given) or given with -X.
 */
function methodAndPath(args: {method?: string; path?: string}, flag: string | undefined, body: boolean): {method: string; path: string} {
  const [first, second] = [args.method, args.path]
  const isMethod = (word: string | undefined) => word !== undefined && (METHODS as readonly string[]).includes(word.toUpperCase())
  if (first === undefined) throw usageError('missing the PATH argument (till api [METHOD] PATH)', 'e.g. till api /organizations/; see: till api --help')
  if (second === undefined && isMethod(first) && !first.startsWith('/'))
    throw usageError(`missing the PATH argument after ${first.toUpperCase()}`, `e.g. till api ${first.toUpperCase()} /products/`)
  const named = second === undefined ? undefined : first
  const path = second ?? first
  if (named !== undefined && !isMethod(named)) throw usageError(`"${named.slice(0, 20)}" is not an HTTP method`, `use one of ${METHODS.join(', ')}`)
  if (flag !== undefined && !isMethod(flag)) throw usageError(`-X: "${flag.slice(0, 20)}" is not an HTTP method`, `use one of ${METHODS.join(', ')}`)
  if (named !== undefined && flag !== undefined && named.toUpperCase() !== flag.toUpperCase())
    throw usageError(`the method is given twice (${named.toUpperCase()} and -X ${flag.toUpperCase()})`, 'give it once')
  return {method: (named ?? flag ?? (body ? 'POST' : 'GET')).toUpperCase(), path}
}

/**
 * A path as the API's documents write it (`/v1/orders/`) when the base URL already ends in /v1: without the
 * repeated /v1. The emulator's control routes (`/_emulator/...`) sit beside /v1, on the same origin.
 */
function besideBase(path: string, baseUrl: string): string {
  const base = new URL(baseUrl)
  if (/\/v1\/?$/.test(base.pathname) && /^\/v1(\/|$|\?)/.test(path)) return path.slice(3) || '/'
  if (/^\/_emulator(\/|$)/.test(path)) return `${base.origin}${path}`
  return path
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~\dA-Za-z-]+$/

/**
 * `-H 'Name: value'` as headers, names in lower case. Authorization is refused: the client alone sets it, and
 * only to the profile's API origin (src/client/origin.ts), so a header can never send a credential elsewhere.
 */
function requestHeaders(given: string[]): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const line of given) {
    const colon = line.indexOf(':')
    const name = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim()
    if (colon <= 0 || !HEADER_NAME.test(name) || /[\r\n\0]/.test(value))
      throw usageError(`-H takes 'Name: value', not "${line.slice(0, 40)}"`, "e.g. -H 'Accept: text/csv'")
    if (name === 'authorization')
      throw usageError("-H Authorization: till sends the profile's token itself", 'use another profile (-p) or TILL_TOKEN for another token')
    headers[name] = value
  }
  return headers
}

/** An answer's status line and headers as `curl -i` and `gh api -i` print them, then the blank line before the body. */
function statusAndHeaders(status: number, headers: Record<string, string | string[] | undefined>): string {
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd()]
  for (const [name, value] of Object.entries(headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) lines.push(`${name}: ${one}`)
  }
  return `${lines.join('\n')}\n\n`
}
