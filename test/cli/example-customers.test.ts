// The customers the examples act for exist in the emulator's seed: every external customer id (usr_NNNNN)
// in the README, docs/ (the generated command reference included) and the commands' own examples names
// a customer of the default store, so that an example runs as written against a fresh install. One the
// store lacks is "not found" (exit 3), named by the flag that gave it.
import {readdirSync, readFileSync, statSync} from 'node:fs'
import {join, relative} from 'node:path'

import {describe, expect, it} from 'vitest'

import {emulatorAndSandbox, envVars} from '../helpers/cli.js'
import {api, ROOT} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'

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
  const shared = emulatorAndSandbox()

  it('every external customer id an example names is a customer of the default seed', async () => {
    const customers = exampleCustomers()
    expect(customers.size).toBeGreaterThan(0)
    for (const [id, file] of customers) {
      const res = await api(shared.emulator.production, 'GET', `/customers/external/${id}`)
      expect(res.status, `${id} (named in ${file}) is not in the seed`).toBe(200)
    }
  })

  it('a customer the store lacks is not found (exit 3), named by the flag that gave it, for the portal and sessions', async () => {
    const till = (args: string[]) => runInProcess(args, {env: shared.box.env({...envVars(shared.emulator.production), TILL_ENV: 'local'})})
    const portal = await till(['portal', 'orders', 'list', '--as-customer', 'usr_99999'])
    expect(portal.code).toBe(3)
    expect(portal.stderr).toContain('Error: no customer of this organization has the external id usr_99999 (--as-customer)')
    expect(portal.stderr).not.toContain('body.external_customer_id')
    const session = await till(['sessions', 'create', '--external-customer', 'usr_99999'])
    expect(session.code).toBe(3)
    expect(session.stderr).toContain('Error: no customer of this organization has the external id usr_99999 (--external-customer)')
    expect(session.stderr).toContain('Hint: the customers and their external ids: till customers list --columns id,external_id,email')
  })
})
