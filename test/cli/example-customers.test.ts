// The customers the examples act for exist in the emulator's seed: every external customer id (usr_NNNNN)
// in the README, docs/ (the generated command reference included) and the commands' own examples names
// a customer of the default store, so that an example runs as written against a fresh install.
import {readdirSync, readFileSync, statSync} from 'node:fs'
import {join, relative} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, ROOT, startEmulator, type Emulator} from '../helpers/emulator.js'

function textFiles(dir: string, ending: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? textFiles(path, ending) : ending.test(name) ? [path] : []
  })
}

/** Each external customer id and the first file that names it. */
function exampleCustomers(): Map<string, string> {
  const files = [join(ROOT, 'README.md'), ...textFiles(join(ROOT, 'docs'), /\.md$/), ...textFiles(join(ROOT, 'src', 'commands'), /\.ts$/)]
  const found = new Map<string, string>()
  for (const file of files) {
    for (const [id] of readFileSync(file, 'utf8').matchAll(/\busr_\d{5}\b/g)) if (!found.has(id)) found.set(id, relative(ROOT, file))
  }
  return found
}

describe("the examples' customers", () => {
  let emulator: Emulator
  beforeAll(async () => {
    emulator = await startEmulator()
  })
  afterAll(async () => {
    await emulator?.stop()
  })

  it('every external customer id an example names is a customer of the default seed', async () => {
    const customers = exampleCustomers()
    expect(customers.size).toBeGreaterThan(0)
    for (const [id, file] of customers) {
      const res = await api(emulator.production, 'GET', `/customers/external/${id}`)
      expect(res.status, `${id} (named in ${file}) is not in the seed`).toBe(200)
    }
  })
})
