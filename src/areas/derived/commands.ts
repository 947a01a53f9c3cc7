// The everyday commands of a resource, made from its description (src/client/resources/described.ts,
// `commands`) rather than written one file each: list, get, create, update and delete, each sending the
// operation the description names for it. The build (scripts/bundle.js) gives each one its place among
// the commands; the operation table gives each its method and path. Bodies are given as fields (-f text,
// -F typed) or as a JSON document (--input FILE, or - for stdin), checked against the document by the
// service (and by the emulator's contract mode in the tests).
import {Args, Flags, type Command} from '@oclif/core'

import {fieldPairs, readInput} from '../../cli/input/fields.js'
import {OPERATIONS, type OperationId} from '../../client/operations.generated.js'
import {listItems, seg} from '../../client/resources/common.js'
import {RESOURCES, type DerivedVerb, type ResourceDescription} from '../../client/resources/described.js'
import {usageError} from '../../client/till-error.js'
import {BaseCommand, outputFlags, pageFlags} from '../command.js'

type Json = Record<string, unknown>

/** The path of an operation below the base URL, its one parameter (if any) filled with `id`. */
const pathOf = (op: OperationId, id?: string) => OPERATIONS[op].path.replace(/^\/v1/, '').replace(/\{[^}]+\}/, id === undefined ? '' : seg(id))

const bodyFlags = {
  field: Flags.string({char: 'f', description: 'A text field of the body, key=value (repeatable).', multiple: true}),
  'typed-field': Flags.string({char: 'F', description: 'A typed field: numbers, true, false, null, JSON (repeatable).', multiple: true}),
  input: Flags.string({description: 'The JSON body from a file, or - for stdin (fields given with -f and -F are added to it).'}),
}

/** The JSON body of a create or update, from --input and the fields. */
async function bodyFrom(flags: {field?: string[]; 'typed-field'?: string[]; input?: string}): Promise<Json> {
  const body: Json = {}
  if (flags.input) {
    const read = await readInput(flags.input)
    if (typeof read !== 'object' || read === null || Array.isArray(read)) throw usageError('--input must hold one JSON object')
    Object.assign(body, read)
  }
  return Object.assign(body, fieldPairs(flags.field, flags['typed-field'], 'e.g. -f name=Revenue or -F \'metrics=["revenue","orders"]\''))
}

/** A body as -f/-F flags, for an example: ` -f name=Revenue -F 'metrics=["revenue"]'`. */
export function fieldsOf(body: Readonly<Record<string, unknown>> | undefined): string | undefined {
  if (!body) return undefined
  return Object.entries(body)
    .map(([k, v]) => (typeof v === 'string' && /^[\w.@-]+$/.test(v) ? ` -f ${k}=${v}` : ` -F '${k}=${JSON.stringify(v)}'`))
    .join('')
}

const plural = (r: ResourceDescription) => r.plural ?? `${r.noun}s`
const idArg = (r: ResourceDescription) => ({id: Args.string({description: `The ${r.noun}'s id.`, required: true, ignoreStdin: true})})

/** The command of one verb of a described resource, as oclif loads a command module. */
export function derivedCommand(name: string, verb: DerivedVerb): {default: typeof Command} {
  const found = RESOURCES.find((d: ResourceDescription) => d.name === name) as ResourceDescription | undefined
  const named = found?.commands?.[verb]
  if (!found || !named) throw new Error(`no derived command "${verb}" for resource "${name}"`)
  const r: ResourceDescription = found
  const op: OperationId = named
  const view = r.views?.[0] ?? r.name
  const paged = OPERATIONS[op].path.endsWith('/')
  const example = (args: string) => `<%= config.bin %> <%= command.id %>${args}`
  const classes: Record<DerivedVerb, () => typeof Command> = {
    list: () =>
      class extends BaseCommand {
        static override summary = `List ${plural(r)}.`
        static override enableJsonFlag = true
        static override examples = [example(''), example(' -o json')]
        // a path ending in / is a paginated list (items and pagination); another answers one JSON array
        static override flags = {...outputFlags, ...(paged ? pageFlags : {})}
        async run(): Promise<void> {
          const {flags} = await this.parseWithGlobals(this.ctor as typeof BaseCommand)
          const client = await this.ctx.client()
          // api-coverage: any path (the operation's path, from the description)
          const items = paged ? listItems<Json>(client, pathOf(op), {}, this.pageOptions(flags as never)) : await client.get<Json[]>(pathOf(op))
          await this.writeList(view, items, flags)
        }
      },
    get: () =>
      class extends BaseCommand {
        static override summary = `Show one ${r.noun}.`
        static override enableJsonFlag = true
        static override args = idArg(r)
        static override flags = {...outputFlags}
        static override examples = [example(' ID'), example(' ID --json')]
        async run(): Promise<void> {
          const {args, flags} = await this.parseWithGlobals(this.ctor as typeof BaseCommand)
          const client = await this.ctx.client()
          // api-coverage: any path (the operation's path, from the description)
          await this.writeOne(view, await client.get<Json>(pathOf(op, (args as {id: string}).id)), flags)
        }
      },
    create: () =>
      class extends BaseCommand {
        static override summary = `Create a ${r.noun}.`
        static override description = `The body's fields are the document's ${String(r.wire)} input: give them with -f/-F, or as JSON with --input.`
        static override enableJsonFlag = true
        static override flags = {...outputFlags, ...bodyFlags}
        static override examples = [example(fieldsOf(r.example) ?? ' -f name=NAME'), example(' --input body.json')]
        async run(): Promise<void> {
          const {flags} = await this.parseWithGlobals(this.ctor as typeof BaseCommand)
          const body = await bodyFrom(flags as never)
          const client = await this.ctx.client()
          // api-coverage: any path (the operation's path, from the description)
          await this.writeCreated(view, await client.post<Json>(pathOf(op), body), flags)
        }
      },
    update: () =>
      class extends BaseCommand {
        static override summary = `Change a ${r.noun}: only the fields given.`
        static override enableJsonFlag = true
        static override args = idArg(r)
        static override flags = {...outputFlags, ...bodyFlags}
        static override examples = [example(' ID -f name=NAME')]
        async run(): Promise<void> {
          const {args, flags} = await this.parseWithGlobals(this.ctor as typeof BaseCommand)
          const body = await bodyFrom(flags as never)
          if (Object.keys(body).length === 0) throw usageError('nothing to change', 'give fields with -f key=value, -F key=JSON or --input FILE')
          const client = await this.ctx.client()
          // api-coverage: any path (the operation's path, from the description)
          await this.writeChanged(view, await client.patch<Json>(pathOf(op, (args as {id: string}).id), body), flags)
        }
      },
    delete: () =>
      class extends BaseCommand {
        static override summary = `Delete a ${r.noun}.`
        static override description = 'Asks for confirmation on a terminal; without one, --yes is required.'
        static override args = idArg(r)
        static override flags = {...outputFlags, yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'})}
        static override examples = [example(' ID --yes')]
        async run(): Promise<void> {
          const {args, flags} = await this.parseWithGlobals(this.ctor as typeof BaseCommand)
          const id = (args as {id: string}).id
          await this.confirmAction(`delete ${r.noun} ${id}`, (flags as {yes?: boolean}).yes)
          const client = await this.ctx.client()
          // api-coverage: any path (the operation's path, from the description)
          await client.delete<null>(pathOf(op, id))
          this.ctx.note(`Deleted ${r.noun} ${id}.`)
        }
      },
  }
  return {default: classes[verb]()}
}
