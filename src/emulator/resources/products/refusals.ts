// Test-only: refusals armed through the control surface (`/_emulator/products/refuse`). The next create
// or update of a product with the armed name gets the 422 the service gives a refused product, once, so
// a test can show what a client does when the service refuses one write halfway through many.
import type {Env} from '../../core/http.js'
import {ruleValidation} from '../../core/errors.js'

const armed = new WeakMap<Env, Map<string, number>>()

/** The next `times` creates or updates of a product named `name` in `env` are refused. */
export function armRefusal(env: Env, name: string, times = 1): void {
  let names = armed.get(env)
  if (!names) armed.set(env, (names = new Map()))
  names.set(name, times)
}

/** Throws the armed 422 (and uses it up) when `name` is armed in `env`. */
export function checkRefusal(env: Env, name: string | null | undefined): void {
  const names = armed.get(env)
  const left = name ? names?.get(name) : undefined
  if (!names || !name || left === undefined) return
  if (left <= 1) names.delete(name)
  else names.set(name, left - 1)
  throw ruleValidation(['body', 'name'], 'The product was refused (injected by the emulator control surface).', name)
}
