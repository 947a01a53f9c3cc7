// A plan as people read it (a diff: + create, ~ update with the changed fields, - archive, ! kept) and as
// machines read it (`--json`), and an apply's account of what was done and what was not.
import {terminalText, wrapWords} from '../../cli/output/format.js'
import type {ApplyResult} from './apply.js'
import type {Plan, Step} from './plan.js'

export interface Target {
  profile: string
  environment: string
  baseUrl: string
}

const SIGN: Record<Step['action'], string> = {create: '+', update: '~', archive: '-', extra: '!'}

export function targetText(t: Target): string {
  return t.environment === 'production' ? `PRODUCTION (profile ${t.profile}, ${t.baseUrl})` : `${t.environment} (profile ${t.profile}, ${t.baseUrl})`
}

export function countsText(plan: Plan): string {
  const c = plan.counts
  const parts = [`${c.create} to create`, `${c.update} to update`, `${c.archive} to archive`]
  if (c.extra > 0) parts.push(`${c.extra} not in the file (kept)`)
  return parts.join(', ')
}

/** How plan text is shown: wrapped within a terminal's `width`, and escaped for a terminal (names come from files and the API). */
export interface TextOptions {
  width?: number
  tty?: boolean
}

/**
 * Each line escaped on a terminal (one line each: a key's line break, carriage return, escape sequence or
 * U+202E shown escaped, never acted on), then within `width`, wrapped at words; a continuation is
 * indented two more than its line. Piped, the bytes are kept.
 */
const wrapped = (lines: string[], options: TextOptions): string[] =>
  lines.map((line) => {
    const shown = options.tty ? terminalText(line) : line
    return wrapWords(shown, options.width, `${' '.repeat(/^ */.exec(shown)![0].length)}  `)
  })

function stepLines(step: Step): string[] {
  const head = `${SIGN[step.action]} ${step.noun} ${step.key}${step.action === 'archive' && !step.note ? ' (archived: not in the file)' : ''}${step.note ? `: ${step.note}` : ''}`
  const lines = [head]
  for (const c of step.changes) {
    const value = c.from === undefined ? c.to : `${c.from} -> ${c.to}`
    lines.push(`    ${c.field}: ${value}`)
    if (c.note) lines.push(`      (${c.note})`)
  }
  if (step.blocked) lines.push(`    cannot apply: ${step.blocked}`)
  return lines
}

/** Steps alone, a blank line before each; ends with a newline. */
export const stepsText = (steps: Step[], options: TextOptions = {}) => steps.map((s) => `\n${wrapped(stepLines(s), options).join('\n')}\n`).join('')

/** The plan as text for stdout (on a terminal: escaped, lines wrapped at words within its width); ends with a newline. */
export const planText = (plan: Plan, target: Target, options: TextOptions = {}): string => [...planPieces(plan, target, options)].join('')

/** planText a step at a time, for a plan of tens of thousands of steps not to be held as one text. */
export function* planPieces(plan: Plan, target: Target, options: TextOptions = {}): Generator<string> {
  yield `${wrapped([`Plan for ${targetText(target)}: ${countsText(plan)}.`], options).join('\n')}\n`
  if (plan.steps.length === 0) yield `\n${wrapped(['Nothing to do: the environment matches the file.'], options).join('\n')}\n`
  for (const step of plan.steps) yield `\n${wrapped(stepLines(step), options).join('\n')}\n`
}

/** The machine-readable plan. */
export function planJson(plan: Plan, target: Target) {
  return {...planHead(plan, target), steps: plan.steps.map(stepJson)}
}

const planHead = (plan: Plan, target: Target) => ({
  target: {profile: target.profile, environment: target.environment, base_url: target.baseUrl},
  pending: plan.pending,
  counts: plan.counts,
})

const stepJson = (s: Step) => ({
  action: s.action,
  kind: s.kind,
  key: s.key,
  id: s.id ?? null,
  changes: s.changes.map((c) => ({field: c.field, from: c.from ?? null, to: c.to, note: c.note ?? null})),
  blocked: s.blocked ?? null,
  note: s.note ?? null,
})

/** `JSON.stringify(planJson(plan, target), null, 2)` and a newline, a step at a time. */
export function* planJsonPieces(plan: Plan, target: Target): Generator<string> {
  const head = JSON.stringify(planHead(plan, target), null, 2)
  yield `${head.slice(0, -2)},\n  "steps": [`
  if (plan.steps.length === 0) {
    yield ']\n}\n'
    return
  }
  let first = true
  for (const step of plan.steps) {
    yield `${first ? '' : ','}\n${JSON.stringify(stepJson(step), null, 2).replace(/^/gm, '    ')}`
    first = false
  }
  yield '\n  ]\n}\n'
}

const PAST: Record<Step['action'], string> = {create: 'created', update: 'updated', archive: 'archived', extra: 'kept'}

export const doneLine = (d: {noun: string; key: string; action: Step['action']; id: string; verb?: string}) =>
  `${d.verb ?? PAST[d.action]} ${d.noun} ${d.key} (${d.id})`

/** What an apply that stopped did not do, one line each. */
export const notDoneLines = (result: ApplyResult) => result.notDone.map((s) => `not done: ${s.action} ${s.noun} ${s.key}`)
