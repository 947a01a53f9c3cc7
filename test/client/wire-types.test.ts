// The wire types (src/client/wire/openapi.ts) are what openapi-typescript makes of the published OpenAPI
// document now: a newer document or a hand edit shows here until `npm run wire-types` is run again.
// They are types only: the compiled module exports nothing, so the bundle carries none of it.
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {ROOT} from '../helpers/emulator.js'
import {scaled} from '../helpers/machine.js'

describe('wire types', () => {
  it(
    'the checked-in module is what the script generates from the document now',
    async () => {
      const {generate} = (await import(join(ROOT, 'scripts', 'wire-types.js'))) as {generate: () => Promise<string>}
      const now = await generate()
      const checkedIn = readFileSync(join(ROOT, 'src', 'client', 'wire', 'openapi.ts'), 'utf8')
      expect(now.length).toBeGreaterThan(100_000)
      // toBe on 1.5 MB of text would print all of it: compare, then name the first line that differs.
      const a = now.split('\n')
      const b = checkedIn.split('\n')
      const first = a.findIndex((line, i) => line !== b[i])
      expect(first === -1 && a.length === b.length ? 'same' : `differs at line ${first + 1}: run npm run wire-types`).toBe('same')
    },
    scaled(60_000),
  )

  it('compiles to a module with nothing in it at run time', () => {
    const built = readFileSync(join(ROOT, 'dist', 'client', 'wire', 'openapi.js'), 'utf8')
    expect(built.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '').trim()).toBe('export {};')
  })
})
