// Products (api-facts §3.1, §4.1).
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import {listItems, metadataQuery, seg, type Item} from './common.js'

export interface ProductFilters {
  query?: string
  archived?: boolean
  recurring?: boolean
  benefitId?: string
  visibility?: string[]
  sorting?: string[]
  metadata?: string[]
}

export function listProducts(client: ApiClient, f: ProductFilters, page: PaginateOptions): AsyncGenerator<Item> {
  return listItems(client, '/products/', {
    query: f.query,
    is_archived: f.archived,
    is_recurring: f.recurring,
    benefit_id: f.benefitId,
    visibility: f.visibility,
    sorting: f.sorting,
    ...metadataQuery(f.metadata),
  }, page)
}

export const getProduct = (client: ApiClient, id: string) => client.get<Item>(`/products/${seg(id)}`)
