// Shared shapes of resource functions: list endpoints as item streams.
import type {ApiClient, Query} from '../client.js'
import {paginate, type PageResult, type PaginateOptions} from '../paginate.js'

export type Item = Record<string, unknown> & {id: string}

/** Every item of a list endpoint (one page, or all with `all`), in the API's order. */
export function listItems<T = Item>(client: ApiClient, path: string, query: Query, options: PaginateOptions): AsyncGenerator<T> {
  return paginate<T>(
    (page, limit, signal) => client.get<PageResult<T>>(path, {query: {...query, page, limit}, signal}),
    options,
  )
}

/** `--metadata key=value` pairs as the API's `metadata[key]=value` query parameters. */
export function metadataQuery(pairs: string[] | undefined): Query {
  const query: Query = {}
  for (const pair of pairs ?? []) {
    const at = pair.indexOf('=')
    const key = pair.slice(0, at)
    const list = (query[`metadata[${key}]`] as string[] | undefined) ?? []
    list.push(pair.slice(at + 1))
    query[`metadata[${key}]`] = list
  }
  return query
}

/** A path segment from user input, safely encoded. */
export const seg = (value: string) => encodeURIComponent(value)
