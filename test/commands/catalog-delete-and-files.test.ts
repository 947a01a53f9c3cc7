// Two catalog operations: `till products delete` (DELETE /v1/products/{id}, newer than the
// document: a product nothing uses, ProductNotDeletable for one with orders, subscriptions or discounts)
// and `till benefits files` (GET /v1/benefits/{id}/files: a downloadables benefit's files that are not
// archived, with their download counts; not found for any other type). Contract mode on.
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {envVars, sandbox, type CliResult, type Sandbox} from '../helpers/cli.js'
import {api, listAll, startEmulator, type Emulator, type Json} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'

let emulator: Emulator
let box: Sandbox
const till = (args: string[]) => runInProcess(args, {env: box.env(envVars(emulator.production))})
const ok = (r: CliResult) => expect(r.code, `exit ${r.code}\n${r.stderr}`).toBe(0)
const created = async (args: string[]): Promise<string> => {
  const r = await till(args)
  ok(r)
  return r.stdout.trim()
}

beforeAll(async () => {
  emulator = await startEmulator()
  box = sandbox()
})
afterAll(async () => {
  await emulator?.stop()
  box?.cleanup()
})

describe('till products delete', () => {
  it('deletes a product nothing uses, after a confirmation', async () => {
    const id = await created(['products', 'create', '--name', 'Never sold', '--price', '9.00'])
    expect((await api(emulator.production, 'GET', `/products/${id}`)).body.is_deletable).toBe(true)
    const unconfirmed = await till(['products', 'delete', id])
    expect(unconfirmed.code).toBe(2)
    expect(unconfirmed.stderr).toMatch(/--yes/)
    expect((await api(emulator.production, 'GET', `/products/${id}`)).status).toBe(200)

    const deleted = await till(['products', 'delete', id, '--yes'])
    ok(deleted)
    expect(deleted.stdout).toBe('')
    expect(deleted.stderr).toContain(`Deleted product ${id}.`)
    expect((await api(emulator.production, 'GET', `/products/${id}`)).status).toBe(404)
  })

  it('refuses a product with orders, or one a discount is for (ProductNotDeletable), naming archive', async () => {
    const orders = await listAll(emulator.production, '/orders/')
    const sold = orders.find((o) => o.product_id)!.product_id
    const refused = await till(['products', 'delete', sold, '--yes'])
    expect(refused.code).toBe(1)
    expect(refused.stderr.split('\n').slice(0, 2)).toEqual([
      `Error: product ${sold} has orders, subscriptions or discounts, so it cannot be deleted`,
      `Hint: archive it instead: till products archive ${sold}`,
    ])

    const promoted = await created(['products', 'create', '--name', 'On promotion', '--price', '19.00'])
    await created(['discounts', 'create', '--name', 'Launch', '--percent', '10', '--product', promoted])
    expect((await api(emulator.production, 'GET', `/products/${promoted}`)).body.is_deletable).toBe(false)
    const discounted = await till(['products', 'delete', promoted, '--yes'])
    expect(discounted.code).toBe(1)
    expect(discounted.stderr).toMatch(/cannot be deleted/)
  })
})

describe('till benefits files', () => {
  it("lists a downloadables benefit's files with their download counts, leaving out archived ones", async () => {
    writeFileSync(join(box.root, 'manual.pdf'), '%PDF-1.4 manual\n')
    writeFileSync(join(box.root, 'old.zip'), 'old release\n')
    const manual = await created(['files', 'upload', join(box.root, 'manual.pdf'), '--version', '2.0'])
    const old = await created(['files', 'upload', join(box.root, 'old.zip')])
    const benefit = (
      await api(emulator.production, 'POST', '/benefits/', {
        body: {type: 'downloadables', description: 'Manuals', properties: {files: [manual, old], archived: {[old]: true}}},
      })
    ).body
    const listed = await till(['benefits', 'files', benefit.id, '-o', 'json'])
    ok(listed)
    expect(JSON.parse(listed.stdout)).toMatchObject([{id: manual, name: 'manual.pdf', version: '2.0', service: 'downloadable', downloaders: 0, downloads: 0}])
    const tsv = await till(['benefits', 'files', benefit.id, '-o', 'tsv', '--columns', 'name,downloads'])
    ok(tsv)
    expect(tsv.stdout).toBe('manual.pdf\t0\n')
  })

  it('any other type of benefit has no files: not found', async () => {
    const custom: Json = (await listAll(emulator.production, '/benefits/')).find((b) => b.type === 'custom')
    const r = await till(['benefits', 'files', custom.id])
    expect(r.code).toBe(3)
    expect(r.stderr.split('\n')[0]).toBe(`Error: not found: there is no benefit ${custom.id} in local (profile local)`)
  })
})
