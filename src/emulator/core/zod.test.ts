import {z as zod} from 'zod'
import {describe, expect, it} from 'vitest'

import {z} from './zod.js'

describe("the emulator's deferred zod", () => {
  it('declares a record, not a schema: nothing is built until it is used', () => {
    // a zod schema is an object; a record is a callable proxy that has built nothing yet
    expect(typeof zod.string()).toBe('object')
    expect(typeof z.string().min(1)).toBe('function')
  })

  it('parses as the schema zod builds from the same chain, records nested in objects and arrays included', () => {
    const keyRef = {key: z.string(), organization_id: z.uuid()}
    const amount = z.union([z.int().min(0), z.null()])
    const deferred = z.object({...keyRef, amount: amount.nullish(), tags: z.array(z.enum(['a', 'b'])).default([])})
    const built = zod.object({
      key: zod.string(),
      organization_id: zod.uuid(),
      amount: zod.union([zod.int().min(0), zod.null()]).nullish(),
      tags: zod.array(zod.enum(['a', 'b'])).default([]),
    })
    const inputs = [
      {key: 'k', organization_id: '6f1c7a8e-2b1d-4c3e-9f4a-1b2c3d4e5f60'},
      {key: 'k', organization_id: '6f1c7a8e-2b1d-4c3e-9f4a-1b2c3d4e5f60', amount: 5, tags: ['b']},
      {key: 1, organization_id: 'nope', amount: -1, tags: ['c']},
      null,
    ]
    for (const input of inputs) {
      const a = deferred.safeParse(input)
      const b = built.safeParse(input)
      expect(a.success).toBe(b.success)
      expect(a.success ? a.data : a.error.issues).toEqual(b.success ? b.data : b.error.issues)
    }
  })

  it('builds a record once, is never a thenable, and answers instanceof as zod does', async () => {
    const shared = z.string().min(2)
    const object = z.object({a: shared})
    expect(object.shape.a).toBe(object.shape.a)
    expect((shared as unknown as {then?: unknown}).then).toBeUndefined()
    expect(await (async () => shared)()).toBe(shared)
    const failure = object.safeParse({a: 'x'})
    expect(failure.success).toBe(false)
    expect(failure.error instanceof z.ZodError).toBe(true)
    // a refinement runs at parse time, with the value
    const seen: unknown[] = []
    const refined = z.record(z.string(), z.number()).refine((m) => seen.push(m) > 0 && Object.keys(m).length <= 1, {message: 'one key at most'})
    expect(seen).toEqual([])
    expect(refined.safeParse({a: 1, b: 2}).error?.issues[0]?.message).toBe('one key at most')
    expect(seen).toEqual([{a: 1, b: 2}])
  })
})
