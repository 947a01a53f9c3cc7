// Applying a plan: its steps in order (meters, custom fields and benefits before the products that use them, archives last), each
// one request or two, within the client's rate budget. The first refusal stops the run: what was done,
// what failed and what was not done are returned, and running apply again finishes the work (every step
// matches by key, so nothing done is done twice).
import type {ApiClient} from '../../client/client.js'
import type {Item} from '../../client/resources/common.js'
import type {Catalog} from './document.js'
import {KINDS, type AnyKind} from './kinds/index.js'
import type {EnvironmentKeys, Step} from './plan.js'

export interface Done {
  kind: string
  noun: string
  key: string
  action: Step['action']
  id: string
  /** What was done, when it is not the action's usual word ("disabled"). */
  verb?: string
  /** What the user must do next (stderr). */
  note?: string
}

export interface ApplyResult {
  done: Done[]
  failed?: {step: Step; error: unknown}
  notDone: Step[]
}

export async function applyPlan(
  client: ApiClient,
  catalog: Catalog,
  steps: Step[],
  keys: EnvironmentKeys,
  onDone: (done: Done) => void = () => {},
  kinds: AnyKind[] = KINDS,
): Promise<ApplyResult> {
  const done: Done[] = []
  const todo = steps.filter((s) => s.action !== 'extra')
  for (const [i, step] of todo.entries()) {
    const kind = kinds.find((k) => k.section === step.kind)!
    const entry = catalog[step.kind]?.[step.key]
    let result: Item
    try {
      if (step.action === 'create') result = await kind.create(client, step.key, entry, keys)
      else if (step.action === 'update') result = await kind.update(client, step.key, entry, keys.byId(step.kind, step.id!)!.item, keys)
      else result = await kind.archive!(client, keys.byId(step.kind, step.id!)!.item)
    } catch (error) {
      return {done, failed: {step, error}, notDone: todo.slice(i + 1)}
    }
    if (step.action === 'create') keys.learn(step.kind, step.key, result.id)
    const record: Done = {kind: step.kind, noun: step.noun, key: step.key, action: step.action, id: result.id}
    if (step.action === 'archive' && kind.archiveWord) record.verb = `${kind.archiveWord}d`
    if (step.action === 'create' && kind.created) record.note = kind.created(step.key, result)
    done.push(record)
    onDone(record)
  }
  return {done, notDone: []}
}
