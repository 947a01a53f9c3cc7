// The emulator's zod, deferred: a schema is built on its first use, not when its module loads. The
// resources declare about 1,500 schema objects at their top level, and building them all is a large part of
// the emulator's start and most of its garbage, paid by every command that runs an emulator
// of its own, which then answers a request or two.
//
// `z` records what is asked of it (a property, a call) and returns another record; the first use of a
// record that needs the schema itself (a parse, its shape, its internals) replays the chain on zod, with
// any record among the arguments (z.object({a: rec}), z.union([rec, rec])) built first. Each record keeps
// what it built, so a schema that others extend is built once. Types are zod's own.
import {z as zod} from 'zod'

/** What a schema is used for, as opposed to built with: these are taken from the built schema. */
const USES = new Set<PropertyKey>(['safeParse', 'parse', 'safeParseAsync', 'parseAsync', 'spa', 'shape', 'def', '_zod', '~standard', 'options', 'enum'])

const BUILD = Symbol('build')

interface Step {
  parent?: Step
  /** A property asked of the parent's value, or a call of it (with the parent's parent as `this`). */
  key?: PropertyKey
  args?: unknown[]
  built?: {value: unknown}
}

function build(step: Step): unknown {
  if (step.built) return step.built.value
  let value: unknown
  if (!step.parent) value = zod
  else if (step.args) {
    const callee = step.parent
    const self = callee.parent ? build(callee.parent) : undefined
    const fn = build(callee) as (...args: unknown[]) => unknown
    value = fn.apply(self, step.args.map(real))
  } else value = (build(step.parent) as Record<PropertyKey, unknown>)[step.key!]
  step.built = {value}
  return value
}

/** `value` with every record in it built: plain objects and arrays are walked, anything else kept. */
function real(value: unknown): unknown {
  if (typeof value === 'function' || (typeof value === 'object' && value !== null)) {
    const record = (value as {[BUILD]?: () => unknown})[BUILD]
    if (record) return record()
    if (Array.isArray(value)) return value.map(real)
    if (Object.getPrototypeOf(value) === Object.prototype) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, real(v)]))
  }
  return value
}

function record(step: Step): unknown {
  // a function target, so that a record can be called
  return new Proxy(function recorded() {}, {
    get(_, key) {
      if (key === BUILD) return () => build(step)
      // never a thenable: an async function may return a schema
      if (key === 'then') return undefined
      if (typeof key === 'symbol' || USES.has(key)) {
        const schema = build(step) as Record<PropertyKey, unknown>
        const value = schema[key]
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(schema) : value
      }
      return record({parent: step, key})
    },
    apply(_, __, args: unknown[]) {
      return record({parent: step, args})
    },
  })
}

export const z = record({}) as typeof zod

// zod's types, under the same name: its own `z` is both the builders and the types
export declare namespace z {
  export type infer<T> = zod.infer<T>
  export type output<T> = zod.output<T>
  export type ZodType<Output = unknown, Input = unknown> = zod.ZodType<Output, Input>
  export type ZodObject<Shape extends zod.core.$ZodShape = zod.core.$ZodLooseShape> = zod.ZodObject<Shape>
  export namespace core {
    export type $ZodIssue = zod.core.$ZodIssue
  }
}
