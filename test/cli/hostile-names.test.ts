// Names from the API or a file never drive the terminal: a product, discount, benefit, custom field,
// checkout link and subscription named with an OSC 52 sequence (which writes the clipboard), ESC[2J, U+202E,
// a carriage return and a NUL are shown escaped by every dry run, confirmation, picker, plan, -o
// csv/tsv/json and till api's JSON on a real pseudo-terminal; piped, -o csv and tsv keep the bytes.
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {envVars, KEY, runAnswering, runCli, runTty, sandbox, sh, TILL, type Sandbox} from '../helpers/cli.js'
import {api, listAll, startEmulator, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {scaled} from '../helpers/machine.js'

const HOSTILE = 'Evil \u001b]52;c;aGk=\u0007 \u001b[2J \u202egnp.exe\u202c X\rY\u0000Z'
/** How HOSTILE reads once escaped (a carriage return: a space on one line, \x0d in a message of several). */
const SHOWN = /Evil \\x1b\]52;c;aGk=\\x07 \\x1b\[2J \\u202egnp\.exe\\u202c X(\\x0d| )Y\\x00Z/

/** Nothing of HOSTILE acted on the terminal: no OSC, no clear screen, no reordering, no bell, no lone CR, no NUL. */
function expectInert(screen: string, label: string): void {
  expect(screen, label).not.toContain('\u001b]')
  expect(screen, label).not.toContain('\u001b[2J')
  expect(screen, label).not.toContain('\u202e')
  expect(screen, label).not.toContain('\u0007')
  expect(screen, label).not.toContain('\u0000')
  expect(screen, label).not.toContain('X\rY')
}

describe('hostile names on a terminal', {timeout: scaled(180_000)}, () => {
  let emulator: Emulator
  let env: EnvHandle
  let box: Sandbox
  const made: Record<string, string> = {}
  const vars = () => box.env(envVars(env))
  const onTty = (args: string[]) => runTty(`${TILL} ${args.map(sh).join(' ')}`, {env: vars(), timeoutMs: scaled(60_000)})

  beforeAll(async () => {
    emulator = await startEmulator()
    env = emulator.production
    box = sandbox()
    const create = async (path: string, body: object) => {
      const r = await api(env, 'POST', path, {body})
      expect(r.status, `${path}: ${r.text}`).toBe(201)
      return r.body as Json
    }
    made.product = (await create('/products/', {name: HOSTILE, prices: [{amount_type: 'fixed', price_amount: 900, price_currency: 'usd'}]})).id
    made.discount = (await create('/discounts/', {name: HOSTILE, type: 'percentage', duration: 'once', basis_points: 1000})).id
    made.benefit = (await create('/benefits/', {type: 'custom', description: HOSTILE, properties: {note: null}})).id
    made.field = (await create('/custom-fields/', {type: 'text', slug: 'hostile', name: HOSTILE, properties: {}})).id
    made.link = (await create('/checkout-links/', {payment_processor: 'stripe', products: [made.product], label: HOSTILE})).id
    // a seeded active subscription whose product now has the name
    const subscription = (await listAll(env, '/subscriptions/', 'active=true'))[0]!
    made.subscription = subscription.id
    const renamed = await api(env, 'PATCH', `/products/${subscription.product_id}`, {body: {name: HOSTILE}})
    expect(renamed.status, renamed.text).toBe(200)
  })
  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
  })

  it('dry runs name the object escaped, and nothing else reaches the terminal raw', async () => {
    for (const args of [
      ['products', 'archive', made.product!, '--dry-run'],
      ['products', 'delete', made.product!, '--dry-run'],
      ['discounts', 'delete', made.discount!, '--dry-run'],
      ['benefits', 'delete', made.benefit!, '--dry-run'],
      ['custom-fields', 'delete', made.field!, '--dry-run'],
      ['checkout-links', 'delete', made.link!, '--dry-run'],
      ['subscriptions', 'cancel', made.subscription!, '--dry-run'],
      ['subscriptions', 'revoke', made.subscription!, '--dry-run'],
    ]) {
      const label = args.join(' ')
      const r = await onTty(args)
      expect(r.code, `${label}\n${r.stdout}`).toBe(0)
      expect(r.stdout, label).toMatch(/^Dry run: would /m)
      expect(r.stdout, label).toMatch(SHOWN)
      expectInert(r.stdout, label)
      // a dry run writes no terminal codes of its own: any ESC or lone CR would be the name's
      expect(r.stdout, label).not.toMatch(/[\u001b\r]/)
    }
  })

  it('the y/N question and a picker show the name escaped', async () => {
    const question = await runAnswering(`${TILL} products archive ${made.product}`, vars(), [{when: /Archive product/, send: `n${KEY.enter}`}], 60_000)
    expect(question.unanswered, question.stdout).toBe(0)
    expect(question.stdout).toMatch(SHOWN)
    expectInert(question.raw, 'products archive')
    expect((await api(env, 'GET', `/products/${made.product}`)).body.is_archived).toBe(false)

    const picker = await runAnswering(`${TILL} checkouts create`, vars(), [{when: /Product to sell/, send: '\u0003'}], 60_000)
    expect(picker.unanswered, picker.stdout).toBe(0)
    expect(picker.stdout).toMatch(SHOWN)
    expectInert(picker.raw, 'checkouts create')
  })

  it('-o csv, tsv and json on a terminal are escaped; piped, csv and tsv keep the bytes', async () => {
    const list = ['products', 'list', '--query', 'Evil', '--columns', 'id,name']
    for (const format of ['csv', 'tsv', 'json', 'jsonl', 'table']) {
      const r = await onTty([...list, '-o', format])
      expect(r.code, `${format}\n${r.stdout}`).toBe(0)
      expectInert(r.stdout, format)
      // (csv's own records end in CRLF; a table's header is bold)
      expect(r.stdout.replaceAll('\r\n', '\n').replace(/\u001b\[\d*m/g, ''), format).not.toMatch(/[\u001b\r]/)
      expect(r.stdout, format).toContain('\\u202egnp.exe')
    }
    // till api's JSON on a terminal (indented, coloured) writes them as \u escapes
    const answer = await onTty(['api', 'GET', `/products/${made.product}`])
    expect(answer.code, answer.stdout).toBe(0)
    expectInert(answer.stdout, 'api')
    expect(answer.stdout).toContain('\\u202egnp.exe')
    const csv = await runCli([...list, '-o', 'csv'], {env: vars()})
    expect(csv.stdout).toContain(`,"${HOSTILE}"\r\n`)
    const tsv = await runCli([...list, '-o', 'tsv'], {env: vars()})
    expect(tsv.stdout).toContain('\u202egnp.exe\u202c')
  })

  it('a carriage return in a name: escaped by -o csv and tsv on a terminal, kept in a quoted csv field piped', async () => {
    const list = ['products', 'list', '--query', 'Evil', '--columns', 'id,name']
    const csv = await onTty([...list, '-o', 'csv'])
    expect(csv.code, csv.stdout).toBe(0)
    // the terminal turns each LF into CR LF (and runTty each CR LF back): a CR of the name's would stand before Y
    expect(csv.stdout).toContain(' X\\x0dY\\x00Z\r\n')
    expect(csv.stdout.replace(/\r\n/g, '')).not.toContain('\r')
    const tsv = await onTty([...list, '-o', 'tsv'])
    expect(tsv.code, tsv.stdout).toBe(0)
    expect(tsv.stdout).toContain(' X Y\\x00Z\n')
    expect(tsv.stdout).not.toContain('\r')
    const piped = await runCli([...list, '-o', 'csv', '--no-header'], {env: vars()})
    expect(piped.stdout.split('\r\n')).toContain(`${made.product},"${HOSTILE}"`)
  })

  it("the service's CSV exports on a terminal show a name's controls escaped; piped, its bytes", async () => {
    const customer = (await listAll(env, '/customers/'))[0]!
    const renamed = await api(env, 'PATCH', `/customers/${customer.id}`, {body: {name: HOSTILE}})
    expect(renamed.status, renamed.text).toBe(200)
    const screen = await onTty(['customers', 'export'])
    expect(screen.code, screen.stdout).toBe(0)
    expectInert(screen.stdout, 'customers export')
    expect(screen.stdout).toMatch(SHOWN)
    expect(screen.stdout.replace(/\r\n/g, '')).not.toMatch(/[\u001b\r]/)
    expect(screen.stdout).toContain(`${customer.id},`)
    const piped = await runCli(['customers', 'export'], {env: vars()})
    expect(piped.code, piped.stderr).toBe(0)
    expect(piped.stdout).toContain(`"${HOSTILE}"`)
    expect(piped.stdout).toMatch(/^ID,[^\n]*\r\n/)
  })

  it('catalog plan shows names from the file and the environment escaped', async () => {
    const file = join(box.root, 'hostile.yaml')
    writeFileSync(
      file,
      [
        'version: 1',
        'meters:',
        '  evil-meter:',
        `    name: ${JSON.stringify(HOSTILE)}`,
        '    filter: {conjunction: and, clauses: [{property: name, operator: eq, value: evil}]}',
        '    aggregation: {func: count}',
        '    unit: scalar',
        '',
      ].join('\n'),
    )
    const r = await onTty(['catalog', 'plan', file])
    expect(r.code, r.stdout).toBe(10)
    expect(r.stdout).toContain('+ meter evil-meter')
    expect(r.stdout).toContain('\\u202egnp.exe')
    expectInert(r.stdout, 'catalog plan')
    expect(r.stdout).not.toMatch(/[\u001b\r]/)
  })
})
