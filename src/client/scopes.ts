// What an operation needs and what a grant lacks, from the generated tables (scripts/operations.js):
// the operation a request names, the scopes that let it through, the scopes till asks for and a grant
// does not hold, and the commands such a grant leaves refused.
import {OPERATIONS, UNDOCUMENTED_OPERATIONS, type OperationSpec} from './operations.generated.js'
import {COMMAND_OPERATIONS, SHARED_OPERATIONS, TILL_API_SCOPES} from './till-scopes.generated.js'

const ALL: Record<string, OperationSpec> = {...OPERATIONS, ...UNDOCUMENTED_OPERATIONS}

export const operationSpec = (id: string): OperationSpec | undefined => (Object.hasOwn(ALL, id) ? ALL[id] : undefined)

interface Matcher {
  id: string
  method: string
  pattern: RegExp
}

let matchers: Matcher[] | undefined

/** Path templates as patterns; a template with fewer parameters first (`/v1/customers/export` before `/v1/customers/{id}`). */
function table(): Matcher[] {
  matchers ??= Object.entries(ALL)
    .map(([id, op]) => ({
      id,
      method: op.method,
      params: (op.path.match(/\{/g) ?? []).length,
      pattern: new RegExp(
        `^${op.path
          .split(/\{[^}]*\}/)
          .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
          .join('[^/]+')}$`,
      ),
    }))
    .sort((a, b) => a.params - b.params)
  return matchers
}

/** The operation a request names (`GET`, `/v1/discounts/123`), or undefined for a path of no known operation. */
export function findOperation(method: string, pathname: string): {id: string; spec: OperationSpec} | undefined {
  const m = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase()
  const found = table().find((t) => t.method === m && t.pattern.test(pathname))
  return found ? {id: found.id, spec: ALL[found.id]!} : undefined
}

/** The scopes any one of which lets an OAuth2 or organization token send the operation; empty when none is needed. */
export function oauthScopes(spec: OperationSpec): readonly string[] {
  return spec.auth.includes('oidc') || spec.auth.includes('oat') ? spec.scopes : []
}

/** Whether a token granted `granted` may send the operation (as far as scopes go). */
export const allows = (granted: readonly string[], spec: OperationSpec) => {
  const needed = oauthScopes(spec)
  return needed.length === 0 || needed.some((s) => granted.includes(s))
}

/** The scopes till asks for that `granted` does not hold. */
export const missingScopes = (granted: readonly string[]): string[] => TILL_API_SCOPES.filter((s) => !granted.includes(s))

/** The commands that send an operation `granted` does not let through, and the shared operations it refuses. */
export function refusedCommands(granted: readonly string[]): {commands: string[]; shared: string[]} {
  const refused = (ids: readonly string[]) =>
    ids.some((id) => {
      const spec = operationSpec(id)
      return spec !== undefined && !allows(granted, spec)
    })
  return {
    commands: Object.keys(COMMAND_OPERATIONS).filter((c) => refused(COMMAND_OPERATIONS[c]!)),
    shared: SHARED_OPERATIONS.filter((id) => refused([id])),
  }
}

const topicOf = (command: string) => (command.includes(' ') ? command.slice(0, command.lastIndexOf(' ')) : command)

/**
 * What will fail with `granted`, in words: a topic when all of its commands will (`discounts`), the
 * commands otherwise (`subscriptions update`), and what every command may send (a customer session).
 */
export function refusedTopics(granted: readonly string[]): string[] {
  const {commands, shared} = refusedCommands(granted)
  const byTopic = new Map<string, string[]>()
  for (const c of Object.keys(COMMAND_OPERATIONS)) byTopic.set(topicOf(c), [...(byTopic.get(topicOf(c)) ?? []), c])
  const out: string[] = []
  for (const [topic, all] of byTopic) {
    const failing = all.filter((c) => commands.includes(c))
    if (failing.length === 0) continue
    if (failing.length === all.length) out.push(topic)
    else out.push(...failing)
  }
  for (const id of shared) out.push(`${id} (any command acting for a customer)`)
  return out
}
