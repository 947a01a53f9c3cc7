// Flags shared by the usage commands, and reading a meter's filter and aggregation from flags or a file.
import {readFileSync} from 'node:fs'

import {Flags} from '@oclif/core'

import type {Aggregation, FilterClause, MeterFilter} from '../../client/resources/meters.js'
import {AGGREGATIONS, FILTER_OPERATORS} from '../../client/resources/meters.js'
import {fsReason} from '../../client/fs-problem.js'
import {usageError} from '../../client/till-error.js'
import {WHEN_HELP} from '../../cli/input/when.js'

export const eventFilterFlags = {
  name: Flags.string({description: 'Only events with this name (repeatable).', multiple: true}),
  customer: Flags.string({description: 'Only events of this customer id (repeatable).', multiple: true}),
  'external-customer': Flags.string({description: 'Only events of this external customer id (repeatable).', multiple: true}),
  meter: Flags.string({description: "Only events that pass this meter's filter."}),
  source: Flags.option({options: ['user', 'system'] as const, description: 'Only events from this source (repeatable).', multiple: true})(),
  since: Flags.string({description: `Only events from this time: ${WHEN_HELP}.`}),
  until: Flags.string({description: 'Only events up to this time (a date: to its end).'}),
  filter: Flags.string({description: 'A filter as JSON: {"conjunction":"and","clauses":[{"property":"tokens","operator":"gt","value":10}]}.'}),
  metadata: Flags.string({description: 'Only events with this metadata key=value (repeatable).', multiple: true}),
}

/**
 * `--filter` checked here, not sent for the service to refuse: a JSON object with a conjunction and its
 * clauses. Returned as given (the service reads the text). Pure.
 */
export function filterText(text: string): string {
  const example = 'e.g. --filter \'{"conjunction":"and","clauses":[{"property":"tokens","operator":"gt","value":10}]}\''
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw usageError(`--filter is not JSON (${(error as Error).message})`, example)
  }
  const filter = value as {conjunction?: unknown; clauses?: unknown}
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw usageError('--filter must be a JSON object', example)
  if (filter.conjunction !== 'and' && filter.conjunction !== 'or') throw usageError('--filter needs "conjunction": "and" or "or"', example)
  if (!Array.isArray(filter.clauses)) throw usageError('--filter needs "clauses": a list of clauses', example)
  return text
}

const OPERATOR_WORDS: Record<string, FilterClause['operator']> = {
  '=': 'eq',
  '==': 'eq',
  '!=': 'ne',
  '>': 'gt',
  '>=': 'gte',
  '<': 'lt',
  '<=': 'lte',
  '~': 'like',
  '!~': 'not_like',
}

/** A clause from `PROPERTY OP VALUE` (`tokens>=10`, `name=api.call`, `model~gpt`, `tier eq pro`). Pure. */
export function parseClause(text: string): FilterClause {
  const words = /^\s*([^\s=!<>~]+)\s+(eq|ne|gt|gte|lt|lte|like|not_like)\s+(.+?)\s*$/.exec(text)
  const symbols = /^\s*([^\s=!<>~]+)\s*(==|!=|>=|<=|!~|=|>|<|~)\s*(.*?)\s*$/.exec(text)
  const m = words ?? symbols
  if (!m)
    throw usageError(
      `--where "${text}" is not PROPERTY OP VALUE`,
      `e.g. --where name=api.call --where "tokens>=10" (operators: = != > >= < <= ~ !~, or ${FILTER_OPERATORS.join(' ')})`,
    )
  const operator = words ? (m[2] as FilterClause['operator']) : OPERATOR_WORDS[m[2]!]!
  const raw = m[3]!
  let value: FilterClause['value'] = raw
  if (/^-?\d+$/.test(raw)) value = Number(raw)
  else if (raw === 'true' || raw === 'false') value = raw === 'true'
  else if (/^".*"$/.test(raw)) value = raw.slice(1, -1)
  return {property: m[1]!, operator, value}
}

/** `sum:tokens`, `count`, `unique:user` -> an aggregation. Pure. */
export function parseAggregation(text: string): Aggregation {
  const [func, property] = text.split(':', 2) as [string, string | undefined]
  if (!(AGGREGATIONS as readonly string[]).includes(func))
    throw usageError(`--aggregation ${text}: unknown function "${func}"`, `use one of ${AGGREGATIONS.join(', ')} (e.g. count, sum:tokens, unique:user_id)`)
  if (func === 'count') return {func: 'count'}
  if (!property) throw usageError(`--aggregation ${func} needs a property`, `e.g. --aggregation ${func}:tokens`)
  return {func, property} as Aggregation
}

export interface MeterDefinition {
  filter?: MeterFilter
  aggregation?: Aggregation
  [key: string]: unknown
}

/** The definition in a JSON file (`-` for stdin is not offered: the file is small and named). */
export function readDefinition(path: string): MeterDefinition {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw usageError(`cannot read --from ${path}: ${fsReason(error)}`, 'give --from the path of a JSON file with the meter')
  }
  try {
    const value = JSON.parse(text) as unknown
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not a JSON object')
    return value as MeterDefinition
  } catch (error) {
    throw usageError(
      `--from ${path} is not a JSON object (${(error as Error).message})`,
      'e.g. {"name":"Tokens","filter":{"conjunction":"and","clauses":[...]},"aggregation":{"func":"sum","property":"tokens"}}',
    )
  }
}

export const meterDefinitionFlags = {
  where: Flags.string({description: 'A filter clause PROPERTY OP VALUE (repeatable; all must hold, or any with --any).', multiple: true}),
  any: Flags.boolean({description: 'Events pass when any --where clause holds (or).'}),
  aggregation: Flags.string({description: 'count, or FUNC:PROPERTY with sum, max, min, avg, unique (e.g. sum:tokens).'}),
  from: Flags.string({description: 'A JSON file with the meter (name, filter, aggregation, unit, metadata); flags override it.'}),
}

export function filterFrom(where: string[] | undefined, any: boolean): MeterFilter | undefined {
  if (!where || where.length === 0) return undefined
  return {conjunction: any ? 'or' : 'and', clauses: where.map(parseClause)}
}
