// What a newcomer from gh and the Stripe CLI types for ids and verbs: `show`
// and `view` are `get`; ids are whole where they fit, and a prefix a table showed works as the id (a small
// cache of the profile's shown ids, mode 0600); an external id where a UUID belongs names the flag for it.
import {mkdirSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {envVars, runTty, sandbox, stripAnsi, TILL, type Sandbox} from '../helpers/cli.js'
import {api, startEmulator, type Emulator, type Json} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'

let emulator: Emulator
let box: Sandbox
let product: Json
let order: Json

beforeAll(async () => {
  emulator = await startEmulator()
  box = sandbox()
  product = (await api(emulator.production, 'GET', '/products/?limit=1&is_archived=false')).body.items[0]
  order = (await api(emulator.production, 'GET', '/orders/?limit=1')).body.items[0]
})
afterAll(async () => {
  await emulator?.stop()
  box?.cleanup()
})

const env = () => box.env({...envVars(emulator.production), TILL_ENV: 'local'})
const till = (args: string[]) => runInProcess(args, {env: env()})

describe('show and view are get, ls is list', () => {
  it.each([
    ['orders', 'show'],
    ['orders', 'view'],
    ['products', 'show'],
    ['payments', 'show'],
  ])('till %s %s ID runs %s get', async (topic, verb) => {
    const id = topic === 'orders' ? order.id : topic === 'products' ? product.id : undefined
    const target = id ?? (await api(emulator.production, 'GET', `/${topic}/?limit=1`)).body.items[0].id
    const shown = await till([topic, verb, target, '--json'])
    expect(shown.code, shown.stderr).toBe(0)
    expect(JSON.parse(shown.stdout).id).toBe(target)
  })

  it("names till's verb for another command line's, and never repeats the argument", async () => {
    const r = await till(['customers', 'rm', 'secret-looking-argument'])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(
      'Error: "customers rm …" is not a till command; did you mean "till customers delete"?\nHint: see the commands with: till customers --help\n',
    )
  })

  it('till orders ls runs orders list, flags and all; its --help is that of orders list', async () => {
    const listed = await till(['orders', 'ls', '--limit', '2', '--json'])
    expect(listed.code, listed.stderr).toBe(0)
    expect((JSON.parse(listed.stdout) as Array<{id: string}>).map((o) => o.id)).toEqual(
      ((await api(emulator.production, 'GET', '/orders/?limit=2')).body.items as Array<{id: string}>).map((o) => o.id),
    )
    const help = await till(['products', 'ls', '--help'])
    expect(help.code, help.stderr).toBe(0)
    expect(help.stdout).toMatch(/\$ till products list/)
  })

  it('orders show --help is the help of orders get', async () => {
    const r = await till(['orders', 'show', '--help'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/\$ till orders get ID/)
  })

  it('topic help says get, the verb that exists', async () => {
    const r = await till(['customers', '--help'])
    expect(r.stdout).not.toMatch(/list, show/)
  })
})

describe('ids in tables', () => {
  it('at 120 columns a product list shows whole ids', async () => {
    const r = await runTty(`${TILL} products list --limit 5`, {env: env(), cols: 120})
    expect(r.code, r.stdout).toBe(0)
    expect(stripAnsi(r.stdout)).toContain(product.id)
  })

  it('on a narrow terminal a shown prefix resolves to its id, said on stderr; an unknown prefix is a clear error', async () => {
    const r = await runTty(`${TILL} products list --limit 5`, {env: env(), cols: 70})
    expect(r.code, r.stdout).toBe(0)
    const text = stripAnsi(r.stdout)
    expect(text).toContain(`${product.id.slice(0, 8)}…`)
    expect(text.replaceAll('\n', ' ')).toMatch(
      /Ids are cut to fit the terminal: a shown prefix \([0-9a-f]{8}\) works where an id is expected; -o tsv or --columns id shows them whole\./,
    )
    const file = join(box.configDir, 'shown-ids.json')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const got = await till(['products', 'get', product.id.slice(0, 8), '--json'])
    expect(got.code, got.stderr).toBe(0)
    expect(JSON.parse(got.stdout).id).toBe(product.id)
    expect(got.stderr).toContain(`product id ${product.id.slice(0, 8)}… is ${product.id} (an id shown earlier in profile local).`)
    // as shown, with the ellipsis
    expect((await till(['products', 'get', `${product.id.slice(0, 8)}…`, '--json'])).code).toBe(0)
    const unknown = await till(['products', 'get', 'ffffffff'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(
      /^Error: product id "ffffffff" is not a whole id, and no id shown earlier in profile local starts with it\nHint: give the whole id/,
    )
  })

  it('an ambiguous prefix is a clear error', async () => {
    const file = join(box.configDir, 'shown-ids.json')
    const ids = ['abcd1234-0000-4000-8000-000000000001', 'abcd5678-0000-4000-8000-000000000002']
    writeFileSync(file, JSON.stringify({[`local ${emulator.production.url}`]: ids}), {mode: 0o600})
    const r = await till(['products', 'get', 'abcd'])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(
      `Error: product id "abcd" is ambiguous: 2 ids shown earlier start with it (${ids.join(', ')})\nHint: give more of its characters, or the whole id\n`,
    )
  })
})

describe('a tampered cache of shown ids', () => {
  it('ignores every entry that is not a whole UUID: not a string, a path, a query; a whole one among them still resolves', async () => {
    const file = join(box.configDir, 'shown-ids.json')
    mkdirSync(box.configDir, {recursive: true})
    const key = `local ${emulator.production.url}`
    const junk = [42, null, {id: 'abcd'}, ['abcd'], 'abcd/../../x', 'abcd?x=1', 'abcd', `${product.id}/../x`]
    for (const entries of [junk, ['abcd?x=1'], ['abcd/../../x'], [`abcd${product.id.slice(4)}?x=1`]]) {
      writeFileSync(file, JSON.stringify({[key]: entries, other: 'abcd'}), {mode: 0o600})
      const r = await till(['products', 'get', 'abcd'])
      expect(r.code, r.stderr).toBe(2)
      expect(r.stderr).toMatch(/^Error: product id "abcd" is not a whole id, and no id shown earlier in profile local starts with it\n/)
    }
    writeFileSync(file, JSON.stringify({[key]: [...junk, product.id]}), {mode: 0o600})
    const got = await till(['products', 'get', product.id.slice(0, 8), '--json'])
    expect(got.code, got.stderr).toBe(0)
    expect(JSON.parse(got.stdout).id).toBe(product.id)
  })
})

describe('external ids where a UUID belongs', () => {
  it('customers get usr_00001 names --external-id', async () => {
    const r = await till(['customers', 'get', 'usr_00001'])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(
      'Error: customer id "usr_00001" is not a UUID; it looks like your own (external) id\nHint: give it with --external-id: till customers get --external-id usr_00001\n',
    )
  })

  it('orders list --customer usr_00001 names --external-customer, before any request', async () => {
    const r = await till(['orders', 'list', '--customer', 'usr_00001'])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(
      'Error: customer id (--customer) "usr_00001" is not a UUID; it looks like your own (external) id\nHint: give it with --external-customer: till orders list --external-customer usr_00001\n',
    )
    const right = await till(['orders', 'list', '--external-customer', 'usr_00001', '--json'])
    expect(right.code, right.stderr).toBe(0)
  })
})
