// Shared shapes of resource functions: list endpoints as item streams.
import type {ApiClient, Query} from '../client.js'
import {paginate, type PageResult, type PaginateOptions} from '../paginate.js'
import {usageError} from '../till-error.js'

export type Item = Record<string, unknown> & {id: string}

/** Every item of a list endpoint (one page, or all with `all`), in the API's order. */
export function listItems<T = Item>(client: ApiClient, path: string, query: Query, options: PaginateOptions): AsyncGenerator<T> {
  return paginate<T>((page, limit, signal) => client.get<PageResult<T>>(path, {query: {...query, page, limit}, signal}), {
    list: `GET ${path}`,
    ...options,
  })
}

/**
 * `--metadata key=value` pairs as the API's `metadata[key]=value` query parameters. A pair without `=`
 * or with an empty or over-long key is refused (a usage error), as on create.
 */
export function metadataQuery(pairs: string[] | undefined): Query {
  const query: Query = {}
  for (const pair of pairs ?? []) {
    const at = pair.indexOf('=')
    const key = pair.slice(0, Math.max(at, 0))
    if (at <= 0 || key.length > 40) throw usageError(`--metadata takes key=value with a key of 1-40 characters, not "${pair}"`, 'e.g. --metadata plan=pro')
    const list = (query[`metadata[${key}]`] as string[] | undefined) ?? []
    list.push(pair.slice(at + 1))
    query[`metadata[${key}]`] = list
  }
  return query
}

/** A path segment from user input, safely encoded. */
export const seg = (value: string) => encodeURIComponent(value)

/** Each key of `T` once: the compiler fails when one is missing or is not `T`'s. */
export type EveryKey<T> = {[K in keyof Required<T>]: true}

/**
 * `value` without the keys that `keys` does not name: what a read-modify-write merges from an answer into a
 * request keeps to the request schema, never what the service shows besides (a field a newer service adds
 * would be refused, or ignored).
 */
export function onlyKeys<T extends object>(value: Record<string, unknown>, keys: EveryKey<T>): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([k]) => Object.hasOwn(keys, k))) as Partial<T>
}
