// Custom checkout fields (text, number, date, checkbox, select) and their attachment to products.
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import {listItems, seg, type Item} from './common.js'

export const CUSTOM_FIELD_TYPES = ['text', 'number', 'date', 'checkbox', 'select'] as const
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number]

export interface CustomFieldFilters {
  query?: string
  type?: string[]
  sorting?: string[]
}

export function listCustomFields(client: ApiClient, f: CustomFieldFilters, page: PaginateOptions): AsyncGenerator<Item> {
  return listItems(client, '/custom-fields/', {query: f.query, type: f.type, sorting: f.sorting}, page)
}

export const getCustomField = (client: ApiClient, id: string) => client.get<Item>(`/custom-fields/${seg(id)}`)

export interface CustomFieldCreate {
  type: CustomFieldType
  slug: string
  name: string
  properties: Record<string, unknown>
  metadata?: Record<string, unknown>
}

export const createCustomField = (client: ApiClient, body: CustomFieldCreate) => client.post<Item>('/custom-fields/', body)

/** `type` must be the field's own (the API uses it to read the properties). */
export type CustomFieldUpdate = Partial<Omit<CustomFieldCreate, 'type'>> & {type: CustomFieldType}

export const updateCustomField = (client: ApiClient, id: string, body: CustomFieldUpdate) => client.patch<Item>(`/custom-fields/${seg(id)}`, body)

export const deleteCustomField = (client: ApiClient, id: string) => client.delete<null>(`/custom-fields/${seg(id)}`)

/** Sets the custom fields a product asks for at checkout (the whole list, in order). */
export const setProductCustomFields = (client: ApiClient, productId: string, fields: Array<{custom_field_id: string; required: boolean}>) =>
  client.patch<Item>(`/products/${seg(productId)}`, {attached_custom_fields: fields})
