import {describe, expect, it} from 'vitest'
import {z} from 'zod'

import {carryProtoKey, ownValue, restoreProtoKey, setOwn} from './own-keys.js'

describe('own keys (a key "__proto__" from elsewhere)', () => {
  it('setOwn makes the key its own, where assignment would set the prototype', () => {
    const out: Record<string, unknown> = {}
    setOwn(out, '__proto__', {admin: true})
    setOwn(out, 'plan', 'pro')
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(JSON.stringify(out)).toBe('{"__proto__":{"admin":true},"plan":"pro"}')
  })

  it('ownValue never answers with an inherited value', () => {
    expect(ownValue({}, '__proto__')).toBeUndefined()
    expect(ownValue({}, 'constructor')).toBeUndefined()
    expect(ownValue(JSON.parse('{"__proto__": "x"}') as Record<string, string>, '__proto__')).toBe('x')
  })

  it('a zod record keeps the key, in its place, when it is carried through', () => {
    const record = z.preprocess(carryProtoKey, z.record(z.string(), z.string())).transform(restoreProtoKey)
    const text = '{"a":"1","__proto__":"x","b":"2"}'
    expect(JSON.stringify(record.parse(JSON.parse(text)))).toBe(text)
    expect(JSON.stringify(record.parse({a: '1'}))).toBe('{"a":"1"}')
  })
})
