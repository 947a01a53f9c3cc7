// What time it is in an environment: the wall clock moved by the environment's clock, or, while the clock's
// walk settles what fell due, the moment being settled (so that what it causes carries that moment).
import type {Env} from '../../core/http.js'

const settling = new WeakMap<Env, number>()

/** The environment's time now. */
export function environmentNow(env: Env): number {
  return settling.get(env) ?? env.options.now() + (env.store.data.clock?.offset_ms ?? 0)
}

/** Runs `fn` with the environment's time held at `ms` (the walk settling one moment). */
export function atMoment<T>(env: Env, ms: number, fn: () => T): T {
  const before = settling.get(env)
  settling.set(env, ms)
  try {
    return fn()
  } finally {
    if (before === undefined) settling.delete(env)
    else settling.set(env, before)
  }
}
