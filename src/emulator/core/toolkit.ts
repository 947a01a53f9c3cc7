// The toolkit a resource's routes are declared on: lookups that answer the service's 404, the
// list route (pagination, the operation's filters and metadata, sorting by exactly the document's sort
// keys) and the get route. Operations are named by the document's operation ids: the path and the kind of
// token come from the generated operation table, the filter names and sort keys from the wire types, so a
// list that drifts from the document does not compile.
import {OPERATIONS} from '../../client/operations.generated.js'
import type {operations} from '../../client/wire/index.js'
import {notFound} from './errors.js'
import {type AuthMode, type Ctx, ok, type Router} from './http.js'
import {type Filter, type ListSpec, listRows, type Scalar} from './list.js'
import type {CollectionName, EnvData, Metadata} from './model.js'
import type {View} from './present.js'
import {pathUuid} from './validate.js'

/** A stored record of a collection. */
export type Row<C extends CollectionName> = EnvData[C][number]

type Operation = keyof typeof OPERATIONS & keyof operations
type QueryOf<Op extends Operation> = operations[Op] extends {parameters: {query?: infer Q}} ? NonNullable<Q> : never

/** The document's list operations: those that take `page` and `limit`. */
export type ListOperation = {[Op in Operation]: [QueryOf<Op>] extends [never] ? never : 'page' extends keyof QueryOf<Op> ? Op : never}[Operation]

type SortKeyOf<Op extends ListOperation> =
  QueryOf<Op> extends {sorting?: infer S} ? (NonNullable<S> extends ReadonlyArray<infer E> ? Exclude<E & string, `-${string}`> : never) : never

/**
 * What each list operation takes, worked out once: its sort keys (the `sorting` enum without the `-` forms),
 * its filters (the query parameters but for paging, sorting and metadata) and whether it takes
 * `organization_id` and `metadata[key]`. (Read through `Op extends ListOperation ? ... : never`, the
 * compiler types a declaration's functions from it while it infers the row type.)
 */
type ListQueries = {
  [Op in ListOperation]: {
    sort: SortKeyOf<Op>
    filter: Exclude<keyof QueryOf<Op> & string, 'page' | 'limit' | 'sorting' | 'metadata'>
    organization: 'organization_id' extends keyof QueryOf<Op> ? true : false
    metadata: 'metadata' extends keyof QueryOf<Op> ? true : false
  }
}
type Query<Op, K extends keyof ListQueries[ListOperation]> = Op extends ListOperation ? ListQueries[Op][K] : never

/** The sort keys the document names for a list operation. */
export type SortKey<Op> = Query<Op, 'sort'>
/** The filters a list operation takes. */
export type FilterName<Op> = Query<Op, 'filter'>

/** How a sort key reads a row (the request is at hand for what is not stored: a status at `now`, a name). */
export type Read<T> = (row: T, ctx: Ctx) => Scalar

/** A sort key of the document the emulator cannot order by, and why: `sorting` by it is refused, as unknown keys are. */
export interface NotSortable {
  readonly notSortable: string
}
export const notSortable = (why: string): NotSortable => ({notSortable: why})

type Sorts<Op, T> = {[K in SortKey<Op>]: Read<T> | NotSortable}
type Criterion<Op> = SortKey<Op> | `-${SortKey<Op>}`
type Filters<Op, T> = {[K in FilterName<Op>]?: Filter<T, Ctx>}

/** The filters of a list, by the operation's query parameter names; `organization_id`, where it takes one, is `organizationScope`. */
type FiltersOf<Op, T> = Query<Op, 'organization'> extends true ? {filters: Filters<Op, T> & {organization_id: Filter<T, Ctx>}} : {filters?: Filters<Op, T>}

/** `metadata[key]=value` filters: required of an operation that takes them, refused of one that does not. */
type MetadataOf<Op, T> = Query<Op, 'metadata'> extends true ? {metadata: (row: T) => Metadata} : {metadata?: never}

/** A list route, declared against its operation's query parameters. */
export type ListDeclaration<Op extends ListOperation, T> = {
  /** Each row of the page, in the answer's shape. */
  present: (view: View, row: T, ctx: Ctx) => unknown
  /** Every sort key of the document's enum, each read from a row or said to be `notSortable`. */
  sorts: Sorts<Op, T>
  /** The order without `sorting`; a list the document gives no `sorting` is the newest or the oldest first. */
  defaultSort: [SortKey<Op>] extends [never] ? readonly ['-created_at'] | readonly ['created_at'] : readonly Criterion<Op>[]
} & FiltersOf<Op, T> &
  MetadataOf<Op, T>

/** `organization_id` of a list: the one organization of the environment (the token's own); any other matches nothing. */
export const organizationScope: Filter<unknown, Ctx> = {
  type: 'uuid',
  match: (_row, values, ctx) => values.includes(ctx.store.data.organization.id),
}

/** Where an operation's route is on the router (`/discounts/:id`) and the token it takes. */
export function routeOf(op: keyof typeof OPERATIONS): {path: string; auth: AuthMode} {
  const spec = OPERATIONS[op]
  const path = spec.path.replace(/^\/v1/, '').replace(/\{([^}]+)\}/g, ':$1')
  const kinds: readonly string[] = spec.auth
  const auth: AuthMode = kinds.length === 0 ? 'none' : kinds.includes('customer_session') || kinds.includes('member_session') ? 'customer' : 'organization'
  return {path, auth}
}

/**
 * The rows of a list before filtering, in ascending `created_at` order (the store keeps them so); checks
 * of the path or the query that come before the list's own go here. Its `ctx` is typed where it is written,
 * `(ctx: Ctx) => ctx.store.all('meters')`: the rows then type the declaration's functions.
 */
export type Rows<T> = (ctx: Ctx) => readonly T[]

/**
 * Registers `GET` of a list operation (its path and the token it takes from the operation table): the rows,
 * filtered, sorted and paged as the declaration says.
 */
export function listRoute<Op extends ListOperation, T>(r: Router, op: Op, rows: Rows<T>, list: ListDeclaration<Op, NoInfer<T>>): void {
  const {path, auth} = routeOf(op)
  const declared = Object.entries(list.sorts as Record<string, Read<T> | NotSortable>)
  const spec: ListSpec<T, Ctx> = {
    filters: list.filters as Record<string, Filter<T, Ctx>> | undefined,
    // a key declared notSortable is not among them: `sorting` by it is refused as by an unknown key
    sorts: declared.length > 0 ? Object.fromEntries(declared.filter((entry): entry is [string, Read<T>] => typeof entry[1] === 'function')) : undefined,
    defaultSort: [...list.defaultSort],
    metadata: list.metadata as ((row: T) => Metadata) | undefined,
  }
  r.get(path, auth, (ctx) => ok(listRows(rows(ctx), ctx.query, spec, (row) => list.present(ctx.view, row, ctx), ctx)))
}

export interface LookupOptions<R> {
  /** Whether a stored record still counts (a soft-deleted one does not): one that does not is a 404 too. */
  live?: (row: R, ctx: Ctx) => boolean
  /** The signed-in customer of a portal route: another customer's record is a 404. */
  customer?: string
  /** The path parameter the id comes from, named by the 422 of a malformed one (`id`); false: not a UUID. */
  param?: string | false
  /** The 404's detail, when the service words it ("Not found" otherwise). */
  detail?: string
}

/**
 * A record of `collection` by id, or the service's 404 (`ResourceNotFound`, "Not found"). The id is the
 * path's: anything but a UUID is the framework's 422 at `["path", param]`, and it is read as the service
 * reads UUIDs (any case, dashes or none).
 */
export function lookup<C extends CollectionName>(ctx: Ctx, collection: C, id: string, options: LookupOptions<Row<C>> = {}): Row<C> {
  const param = options.param ?? 'id'
  const key = param === false ? id : pathUuid({[param]: id}, param)
  const row = ctx.store.get(collection, key)
  const mine = options.customer === undefined || (row as {customer_id?: unknown} | undefined)?.customer_id === options.customer
  if (!row || !mine || (options.live && !options.live(row, ctx))) throw notFound(options.detail)
  return row
}

/** What a lookup by another key found (an external id, a slug, a secret), or the service's 404. */
export function found<R>(row: R | undefined | null): R {
  if (row === undefined || row === null) throw notFound()
  return row
}

/** A record by id, or 404; `customer` for the portal's routes (another customer's record is not found). */
export type Finder<R> = (ctx: Ctx, id: string, customer?: string) => R

/** The lookup of one collection, declared once per resource: `finder('discounts', {live: (d) => d.deleted_at === null})`. */
export const finder =
  <C extends CollectionName>(collection: C, options: Omit<LookupOptions<Row<C>>, 'customer'> = {}): Finder<Row<C>> =>
  (ctx, id, customer) =>
    lookup(ctx, collection, id, {...options, customer})

/** The path parameter `name` as a UUID (lower case, with dashes), or the framework's 422 at `["path", name]`. */
export const pathId = (ctx: Ctx, name = 'id'): string => pathUuid(ctx.params, name)

/**
 * Registers `GET` of one record (its path and token from the operation table): the path's id, 422 when it
 * is not a UUID, the record or 404, presented. `customer` gives the portal's signed-in customer.
 */
export function getRoute<R>(
  r: Router,
  op: keyof typeof OPERATIONS,
  find: Finder<R>,
  present: (view: View, row: R, ctx: Ctx) => unknown,
  customer?: (ctx: Ctx) => string,
): void {
  const {path, auth} = routeOf(op)
  const param = /:([^/]+)$/.exec(path)?.[1] ?? 'id'
  r.get(path, auth, (ctx) => ok(present(ctx.view, find(ctx, pathId(ctx, param), customer?.(ctx)), ctx)))
}

/** A value computed once per request and shared by the reads of its rows (a set of ids, a lookup table). */
export function perRequest<V>(compute: (ctx: Ctx) => V): (ctx: Ctx) => V {
  const cache = new WeakMap<Ctx, V>()
  return (ctx) => {
    if (!cache.has(ctx)) cache.set(ctx, compute(ctx))
    return cache.get(ctx) as V
  }
}
