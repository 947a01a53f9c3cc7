// `till mcp`: an MCP server over stdio whose tools are the operations of the resource descriptions (./tools.ts)
// and, on a local profile, the emulator's control actions (./control-tools.ts). Every call goes through the
// command's context: its profile, the token from where till keeps it, the client that paces through the
// profile's shared budget. till's safety holds: writes refused on production unless allowed, a dry run
// before a refund, a cancel, a revoke or a delete, and errors that say what their exit code means.
import {createHmac, randomBytes} from 'node:crypto'

import type {CallToolResult, Tool} from '@modelcontextprotocol/sdk/types.js'

import type {ApiClient, Query} from '../../client/client.js'
import {toTillError} from '../../client/errors.js'
import {redact} from '../../client/redact.js'
import {seg} from '../../client/resources/common.js'
import {ExitCode, TillError, usageError} from '../../client/till-error.js'
import type {Context} from '../../cli/context.js'
import {errorContextOf} from '../../cli/error-context.js'
import {controlUrl} from '../emulator/control.js'
import {CONTROL_TOOLS, type ControlTool} from './control-tools.js'
import {annotationsOf, CONFIRM_PROPERTY, descriptionOf, inputSchema, needsConfirmation, operationTools, toolName} from './tools.js'
import type {OperationTool} from './tools.js'

export interface McpOptions {
  ctx: Context
  bundleDir: string
  version: string
  allowProductionWrites: boolean
}

type Args = Record<string, unknown>
/** What a dry run says a call would send. */
type Would = {method: string; path: string; query?: Query; body?: unknown}

/** What each exit code of the CLI means (README "Exit codes"), for an agent reading a tool's error. */
const MEANINGS: Record<number, string> = {
  [ExitCode.error]: 'an error',
  [ExitCode.usage]: 'usage or bad input (the API refused the input, or an argument is missing or wrong)',
  [ExitCode.notFound]: 'not found',
  [ExitCode.auth]: 'authentication or permission (the token is missing, wrong, or lacks a scope)',
  [ExitCode.rateLimited]: 'rate limit still exceeded after waiting the allowed time',
  [ExitCode.unavailable]: 'network error or service unavailable',
  [ExitCode.unknown]: "outcome unknown: the write's answer was lost; check whether it was done before trying again",
  [ExitCode.busy]: 'busy: another till process is using the same thing',
  [ExitCode.interrupted]: 'interrupted',
}

/** A key/value sorted JSON text: the same arguments make the same confirmation token. */
const canonical = (value: unknown): string =>
  Array.isArray(value)
    ? `[${value.map(canonical).join(',')}]`
    : value && typeof value === 'object'
      ? `{${Object.keys(value)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((value as Args)[k])}`)
          .join(',')}}`
      : JSON.stringify(value ?? null)

export class TillMcp {
  /** Signs the dry runs of this server: a token is good for the same tool and arguments, in this process only. */
  private readonly key = randomBytes(32)
  private readonly operations = new Map<string, OperationTool>()
  private readonly controls = new Map<string, ControlTool>()
  private readonly schemas: Record<string, unknown>

  constructor(private readonly options: McpOptions) {
    const built = operationTools(options.bundleDir)
    this.schemas = built.schemas
    for (const t of built.tools) this.operations.set(toolName(t.operation), t)
    if (this.local) for (const t of CONTROL_TOOLS) this.controls.set(t.name, t)
  }

  private get local(): boolean {
    return this.options.ctx.profile.environment === 'local'
  }

  list(): Tool[] {
    const ops = [...this.operations].map(([name, t]) => ({
      name,
      description: descriptionOf(t),
      inputSchema: inputSchema(t, this.schemas, needsConfirmation(t)) as Tool['inputSchema'],
      annotations: annotationsOf(t),
    }))
    const controls = [...this.controls.values()].map((t) => ({
      name: t.name,
      description: `${t.description} Local profiles only.`,
      inputSchema: (t.confirm
        ? {...t.inputSchema, properties: {...t.inputSchema.properties, confirm: CONFIRM_PROPERTY}}
        : t.inputSchema) as Tool['inputSchema'],
      annotations: t.annotations,
    }))
    return [...ops, ...controls]
  }

  async call(name: string, args: Args = {}): Promise<CallToolResult> {
    try {
      const op = this.operations.get(name)
      if (op) return await this.callOperation(name, op, args)
      const control = this.controls.get(name)
      if (control) return await this.callControl(control, args)
      const offLocal = name.startsWith('emulator_') && !this.local
      const why = offLocal ? ': the emulator control tools are there on a local profile only' : ''
      throw usageError(`there is no tool "${name}"${why}`, 'list the tools (tools/list)')
    } catch (error) {
      return this.failed(error)
    }
  }

  private async callOperation(name: string, t: OperationTool, args: Args): Promise<CallToolResult> {
    checkArgs(name, args, Object.keys(t.schema.properties), t.schema.required, needsConfirmation(t))
    const write = t.method !== 'GET'
    const {profile} = this.options.ctx
    if (write && profile.environment === 'production' && !this.options.allowProductionWrites) {
      const restart = `till mcp -p ${profile.name} --allow-production-writes`
      const why = `profile "${profile.name}" is production, and till mcp was started without --allow-production-writes`
      throw usageError(`refused: ${name} writes, and ${why}`, `try it on a sandbox or local profile first; to write to production, start: ${restart}`)
    }
    let path = t.path.replace(/^\/v1/, '')
    for (const p of t.pathParams) path = path.replace(`{${p}}`, seg(String(args[p])))
    const query = queryOf(t.query, args)
    const body = t.body ? (args.body ?? (t.method === 'GET' ? undefined : {})) : undefined
    if (needsConfirmation(t)) {
      const dry = this.dryRun(name, args, {method: t.method, path: `/v1${path}`, query, body})
      if (dry) return dry
    }
    const client = await this.options.ctx.client()
    // api-coverage: any path (the operation's path, from the description and the document)
    const answer = await client.request<unknown>(t.method, path, {query, ...(body === undefined ? {} : {body})})
    return this.result(answer.body, `${t.operation}: HTTP ${answer.status}`)
  }

  private async callControl(t: ControlTool, args: Args): Promise<CallToolResult> {
    checkArgs(t.name, args, Object.keys(t.inputSchema.properties), t.inputSchema.required, Boolean(t.confirm))
    const route = t.route.replace('{id}', seg(String(args.id ?? '')))
    const body = Object.fromEntries(t.body.filter((k) => args[k] !== undefined).map((k) => [k, args[k]]))
    if (t.confirm) {
      const dry = this.dryRun(t.name, args, {method: t.method, path: `/_emulator${route}`, body})
      if (dry) return dry
    }
    const client: ApiClient = await this.options.ctx.client()
    const url = controlUrl(client.baseUrl, route)
    const deadline = t.deadlineMs === undefined ? {} : {deadlineMs: t.deadlineMs}
    // api-coverage: any path (the emulator's control routes, outside the API)
    const answer = t.method === 'GET' ? await client.get<unknown>(url) : await client.post<unknown>(url, body, deadline)
    return this.result(answer, t.name)
  }

  private token(name: string, args: Args): string {
    const {confirm: _, ...rest} = args
    const profile = this.options.ctx.profile
    return createHmac('sha256', this.key)
      .update(canonical({name, profile: profile.name, args: rest}))
      .digest('hex')
      .slice(0, 24)
  }

  /** The dry run of a call without its confirmation (nothing sent), or undefined when `confirm` matches. */
  private dryRun(name: string, args: Args, would: Would): CallToolResult | undefined {
    const token = this.token(name, args)
    if (args.confirm === token) return undefined
    if (args.confirm !== undefined) {
      throw usageError(
        `the confirm token does not match this call of ${name}: it confirms another call's dry run`,
        'call it again without confirm for a new dry run, and give its token with the same arguments',
      )
    }
    const {profile} = this.options.ctx
    const where = `profile "${profile.name}" (${profile.environment})`
    const text =
      `Dry run, nothing changed: ${name} would send ${would.method} ${would.path} on ${where}. ` +
      `To do it, call ${name} again with the same arguments and confirm: "${token}".`
    const {environment} = profile
    const structuredContent = {dry_run: true, tool: name, profile: profile.name, environment, would, confirm: token}
    return {content: [{type: 'text', text}], structuredContent}
  }

  /** An answer as structured content (the fields --json prints), and as JSON text for a client without it. */
  private result(answer: unknown, what: string): CallToolResult {
    const structured =
      answer === null || answer === undefined || answer === ''
        ? {done: true, what}
        : typeof answer === 'object' && !Array.isArray(answer)
          ? (answer as Args)
          : {items: answer}
    return {content: [{type: 'text', text: JSON.stringify(structured)}], structuredContent: structured}
  }

  private failed(error: unknown): CallToolResult {
    const e = error instanceof TillError ? error : toTillError(error, errorContextOf(this.options.ctx, 'core'))
    const meaning = MEANINGS[e.exitCode] ?? 'an error'
    const message = redact(e.message)
    const hint = e.hint ? redact(e.hint) : undefined
    const text = `Error (exit code ${e.exitCode}: ${meaning}): ${message}${hint ? `\nHint: ${hint}` : ''}`
    return {
      isError: true,
      content: [{type: 'text', text}],
      structuredContent: {error: {message, ...(hint ? {hint} : {}), exit_code: e.exitCode, meaning}},
    }
  }
}

/** Refuses an argument the tool does not take, and a missing required one, naming it. */
function checkArgs(name: string, args: Args, known: string[], required: string[], confirm: boolean): void {
  const unknown = Object.keys(args).filter((k) => !known.includes(k) && !(confirm && k === 'confirm'))
  if (unknown.length > 0) {
    throw usageError(`${name} takes no argument ${unknown.join(', ')}`, `its arguments: ${known.join(', ') || 'none'}`)
  }
  const missing = required.filter((k) => args[k] === undefined || args[k] === null || args[k] === '')
  if (missing.length > 0) {
    throw usageError(`${name} needs ${missing.join(', ')}`, "see the tool's input schema (tools/list)")
  }
}

/** The query of a call: its query parameters given, an object parameter as `name[key]` (metadata). */
function queryOf(names: string[], args: Args): Query {
  const query: Query = {}
  for (const n of names) {
    const v = args[n]
    if (v === undefined || v === null) continue
    if (typeof v === 'object' && !Array.isArray(v)) {
      for (const [k, inner] of Object.entries(v as Args)) query[`${n}[${k}]`] = inner as Query[string]
    } else query[n] = v as Query[string]
  }
  return query
}

/**
 * Serves `till mcp` on stdin and stdout until the client closes them. A token in the server's environment
 * (TILL_TOKEN) is one an agent's configuration gave it: refused, the profile's own is the one used.
 */
export async function serveMcp(options: McpOptions): Promise<void> {
  if (process.env.TILL_TOKEN) {
    throw usageError(
      "till mcp takes the profile's token from where till keeps it, and TILL_TOKEN is set: a token in an agent's configuration",
      "remove TILL_TOKEN from the MCP client's configuration, and name a profile instead (till mcp -p NAME; till auth login makes one)",
    )
  }
  const [{Server}, {StdioServerTransport}, {CallToolRequestSchema, ListToolsRequestSchema}] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ])
  const mcp = new TillMcp(options)
  const server = new Server({name: 'till', version: options.version}, {capabilities: {tools: {}}})
  server.setRequestHandler(ListToolsRequestSchema, async () => ({tools: mcp.list()}))
  server.setRequestHandler(CallToolRequestSchema, async ({params}) => mcp.call(params.name, params.arguments ?? {}))
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve()
    process.stdin.once('end', () => resolve())
  })
  await server.connect(new StdioServerTransport())
  const {profile} = options.ctx
  const writes = profile.environment === 'production' && !options.allowProductionWrites ? ', writes refused' : ''
  options.ctx.note(`till mcp: serving profile "${profile.name}" (${profile.environment}${writes}) on stdio.`)
  await closed
  await server.close()
}
