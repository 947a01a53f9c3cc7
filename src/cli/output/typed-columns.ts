// Columns over a wire type: a column that shows a field names a field of the type the service's document
// describes (src/client/wire), and a resource's field list is that type's fields, so a renamed or removed
// field is found by the compiler. Types only: at run time these are the plain column helpers.
import {column, type Column, type ColumnKind, type Row} from './columns.js'
import type {Money} from './format.js'

/** The top-level field names of a wire type; of a union (a benefit of any type), those of any member. */
export type FieldOf<T> = T extends unknown ? Extract<keyof T, string> : never

/** `{missing: 'x' | 'y'}` when a list of fields leaves out some of T's (an error that names them). */
type Complete<T, K extends readonly string[]> = [Exclude<FieldOf<T>, K[number]>] extends [never] ? unknown : {missing: Exclude<FieldOf<T>, K[number]>}

export interface TypedColumns<T> {
  /** A column showing the field `key` of a T. */
  column(key: FieldOf<T>, header: string, kind?: ColumnKind): Column
  /** A column of its own name showing what `get` computes from a T. */
  column(key: string, header: string, kind: ColumnKind | undefined, get: (row: T) => unknown): Column
  /** A money column: minor units in `key`, the currency in `currencyKey` (`currency` when T has one). */
  money(key: FieldOf<T>, header: string, ...currency: 'currency' extends FieldOf<T> ? [currencyKey?: FieldOf<T>] : [currencyKey: FieldOf<T>]): Column
  /** What reads the field `key` of a T. */
  field(key: FieldOf<T>): (row: T) => unknown
  /** Every top-level field of T, for `--columns`: the compiler names a field left out or not of T. */
  fields<const K extends readonly FieldOf<T>[]>(keys: K & Complete<T, K>): readonly string[]
}

const asMoney = (amount: unknown, currency: unknown): Money | unknown =>
  typeof amount === 'number' && typeof currency === 'string' ? {amount, currency} : amount

/** The column helpers for rows of the wire type T (`const product = columnsOf<Product>()`). */
export function columnsOf<T>(): TypedColumns<T> {
  return {
    column: (key: string, header: string, kind?: ColumnKind, get?: (row: T) => unknown) =>
      get ? column(key, header, kind, get as unknown as (row: Row) => unknown) : column(key, header, kind),
    money: (key: string, header: string, currencyKey: string = 'currency') => column(key, header, 'money', (row) => asMoney(row[key], row[currencyKey])),
    field: (key: string) => (row: T) => (row as Row)[key],
    fields: (keys) => keys,
  }
}
