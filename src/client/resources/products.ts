// Products (server/polar/product/endpoints.py).
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import type {Product, ProductCreate, ProductPriceCreate, ProductUpdate} from '../wire/index.js'
import {listItems, metadataQuery, seg} from './common.js'

export interface ProductFilters {
  query?: string
  archived?: boolean
  recurring?: boolean
  benefitId?: string
  visibility?: string[]
  sorting?: string[]
  metadata?: string[]
}

export function listProducts(client: ApiClient, f: ProductFilters, page: PaginateOptions): AsyncGenerator<Product> {
  return listItems<Product>(
    client,
    '/products/',
    {
      query: f.query,
      is_archived: f.archived,
      is_recurring: f.recurring,
      benefit_id: f.benefitId,
      visibility: f.visibility,
      sorting: f.sorting,
      ...metadataQuery(f.metadata),
    },
    page,
  )
}

export const getProduct = (client: ApiClient, id: string) => client.get<Product>(`/products/${seg(id)}`)

/** A price to create (`products:create`): fixed (0 = free), custom (pay what you want), seat-based or metered. */
export type PriceCreate = ProductPriceCreate

export type {ProductCreate, ProductUpdate}

export const createProduct = (client: ApiClient, body: ProductCreate) => client.post<Product>('/products/', body)

export const updateProduct = (client: ApiClient, id: string, body: ProductUpdate) => client.patch<Product>(`/products/${seg(id)}`, body)

/** Replaces the product's benefits with `benefitIds`; returns the product. */
export const setProductBenefits = (client: ApiClient, id: string, benefitIds: string[]) =>
  client.post<Product>(`/products/${seg(id)}/benefits`, {benefits: benefitIds})

/** Deletes a product that nothing uses (SDK 1.0.1; newer than the 2026-10 document); 409 ProductNotDeletable otherwise. */
export const deleteProduct = (client: ApiClient, id: string) => client.delete<null>(`/products/${seg(id)}`)
