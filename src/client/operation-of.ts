// Which operation of the document a request is: its method and path matched against the operation
// table's path templates, the most literal template first (`/orders/export` before `/orders/{id}`). The
// retry loop asks it how a lost write is settled (./settlement.ts); error messages ask it which object a
// path names (./resources/described.ts).
import {OPERATIONS, type OperationId, UNDOCUMENTED_OPERATIONS, type UndocumentedOperationId} from './operations.generated.js'

/** An operation of the document, or one of the few till sends that it leaves out (scripts/operations.js). */
export type AnyOperationId = OperationId | UndocumentedOperationId

const ALL: Record<AnyOperationId, {method: string; path: string}> = {...OPERATIONS, ...UNDOCUMENTED_OPERATIONS}

export interface Template {
  id: AnyOperationId
  method: string
  /** The template's segments after `/v1`: literal text, or null where a parameter goes. */
  segments: ReadonlyArray<string | null>
}

let templates: Template[] | undefined

function all(): Template[] {
  templates ??= (Object.keys(ALL) as AnyOperationId[])
    .map((id) => ({
      id,
      method: ALL[id].method,
      segments: ALL[id].path
        .replace(/^\/v1\//, '')
        .split('/')
        .filter(Boolean)
        .map((s) => (s.startsWith('{') ? null : s)),
    }))
    .sort((a, b) => b.segments.filter((s) => s !== null).length - a.segments.filter((s) => s !== null).length)
  return templates
}

/** A request path (below the base URL or from `/v1`, query and fragment ignored) as segments. */
export const segmentsOf = (path: string): string[] =>
  path
    .replace(/[?#].*$/, '')
    .split('/')
    .filter(Boolean)
    .filter((s, i) => i > 0 || s !== 'v1')

/** Every template the segments match, the most literal first; any method when none is given. */
export function matching(parts: readonly string[], method?: string): Template[] {
  return all().filter((t) => (!method || t.method === method) && t.segments.length === parts.length && t.segments.every((s, i) => s === null || s === parts[i]))
}

/** The operation a request is (method and path, `/orders/ID/invoice`): of the document, or one it leaves out. */
export const operationOf = (method: string, path: string): AnyOperationId | undefined => matching(segmentsOf(path), method)[0]?.id
