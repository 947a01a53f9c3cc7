// Custom checkout fields (text, number, date, checkbox, select) and their attachment to products.
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import type {CustomField, CustomFieldCreate, CustomFieldUpdate, Product} from '../wire/index.js'
import {type EveryKey, listItems, onlyKeys, seg} from './common.js'

export const CUSTOM_FIELD_TYPES = ['text', 'number', 'date', 'checkbox', 'select'] as const
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number]

export interface CustomFieldFilters {
  query?: string
  type?: string[]
  sorting?: string[]
}

export function listCustomFields(client: ApiClient, f: CustomFieldFilters, page: PaginateOptions): AsyncGenerator<CustomField> {
  return listItems<CustomField>(client, '/custom-fields/', {query: f.query, type: f.type, sorting: f.sorting}, page)
}

export const getCustomField = (client: ApiClient, id: string) => client.get<CustomField>(`/custom-fields/${seg(id)}`)

export type {CustomFieldCreate}

export const createCustomField = (client: ApiClient, body: CustomFieldCreate) => client.post<CustomField>('/custom-fields/', body)

/** `type` must be the field's own (the API uses it to read the properties); a select field's `properties` carry its `options`. */
export type {CustomFieldUpdate}

export const updateCustomField = (client: ApiClient, id: string, body: CustomFieldUpdate) => client.patch<CustomField>(`/custom-fields/${seg(id)}`, body)

type UpdatePropertiesOf<T extends CustomFieldType> = NonNullable<Extract<CustomFieldUpdate, {type: T}>['properties']>

/** The properties the update of a field of each type takes (CustomFieldUpdate*), checked by the compiler both ways. */
const UPDATE_PROPERTIES: {[T in CustomFieldType]: EveryKey<UpdatePropertiesOf<T>>} = {
  text: {form_label: true, form_help_text: true, form_placeholder: true, textarea: true, min_length: true, max_length: true},
  number: {form_label: true, form_help_text: true, form_placeholder: true, ge: true, le: true},
  date: {form_label: true, form_help_text: true, form_placeholder: true, ge: true, le: true},
  checkbox: {form_label: true, form_help_text: true, form_placeholder: true},
  select: {form_label: true, form_help_text: true, form_placeholder: true, options: true},
}
const OPTION: EveryKey<UpdatePropertiesOf<'select'>['options'][number]> = {value: true, label: true}

/** A field's properties as its update takes them (a select's options too): what the service shows besides is left out. */
export function writableFieldProperties(type: CustomFieldType, properties: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = onlyKeys(properties, UPDATE_PROPERTIES[type] as Record<string, true>)
  if (Array.isArray(kept.options)) kept.options = kept.options.map((o) => (o && typeof o === 'object' ? onlyKeys(o as Record<string, unknown>, OPTION) : o))
  return kept
}

export const deleteCustomField = (client: ApiClient, id: string) => client.delete<null>(`/custom-fields/${seg(id)}`)

/** Sets the custom fields a product asks for at checkout (the whole list, in order). */
export const setProductCustomFields = (client: ApiClient, productId: string, fields: Array<{custom_field_id: string; required: boolean}>) =>
  client.patch<Product>(`/products/${seg(productId)}`, {attached_custom_fields: fields})
