// The catalog commands as processes against one emulator: products create/update/archive/unarchive,
// checkouts, checkout links and benefits. Happy paths in table and JSON output, confirmations with and
// without a terminal, prompts answered through a pseudo-terminal, ids from stdin, usage errors (exit 2).
import {spawn} from 'node:child_process'

import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {envVars, linesOf, sandbox, sh, stripAnsi, TILL, type CliResult, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {api, listAll, ROOT, startEmulator, unknownId, type Emulator, type Json} from '../helpers/emulator.js'
import {scaled} from '../helpers/machine.js'

/** One question of a terminal dialog: once the screen shows `when`, type `send`. */
interface Step {
  when: RegExp
  send: string
}

/**
 * Runs a command line on a pseudo-terminal (`script`), typing each step's answer once its question is
 * on the screen. stdout holds the terminal's output (stdout and stderr), ANSI codes removed.
 */
function dialog(command: string, env: NodeJS.ProcessEnv, steps: Step[], timeoutMs = scaled(25_000)): Promise<CliResult> {
  const child = spawn('script', ['-qfec', `stty cols 200 rows 50 2>/dev/null; ${command}`, '/dev/null'], {cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe']})
  const started = Date.now()
  let screen = ''
  let seen = 0
  let stderr = ''
  const pending = [...steps]
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    screen += chunk
    const step = pending[0]
    if (!step) return
    const fresh = stripAnsi(screen.slice(seen))
    if (step.when.test(fresh)) {
      seen = screen.length
      pending.shift()
      child.stdin.write(step.send)
    }
  })
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  return new Promise((resolve) => {
    child.once('close', (code, signal) => {
      clearTimeout(timer)
      child.stdin.destroy()
      resolve({code, signal, stdout: stripAnsi(screen).replaceAll('\r\n', '\n'), stderr, ms: Date.now() - started})
    })
  })
}

const ENTER = '\r'
const DOWN = '\u001B[B'

describe('catalog commands against the emulator', () => {
  let emulator: Emulator
  let box: Sandbox

  const env = (extra: Record<string, string | undefined> = {}) => box.env({...envVars(emulator.production), TILL_ENV: 'local', ...extra})
  const till = (args: string[], extra: Record<string, string | undefined> = {}, input?: string) => runInProcess(args, {env: env(extra), input})
  const tty = (args: string[], steps: Step[], extra: Record<string, string | undefined> = {}) => dialog(`${TILL} ${args.map(sh).join(' ')}`, env(extra), steps)
  const get = async (path: string) => (await api(emulator.production, 'GET', path)).body as Json
  const status = async (path: string) => (await api(emulator.production, 'GET', path)).status
  const json = (r: CliResult) => JSON.parse(r.stdout) as Json
  const ok = (r: CliResult) => expect(r.code, `exit ${r.code}\n${r.stderr}\n${r.stdout}`).toBe(0)
  const usage = (r: CliResult, text: string | RegExp) => {
    expect(r.code, r.stderr).toBe(2)
    expect(r.stderr).toMatch(text)
    expect(r.stdout).toBe('')
  }

  /** Runs each command at once; each must fail with exit 2 and its message. */
  const refused = async (cases: Array<[string[], RegExp]>) => {
    const results = await Promise.all(cases.map(([args]) => till(args)))
    results.forEach((r, i) => usage(r, cases[i]![1]))
  }

  /** A fresh product made through the API, to archive or change without touching the others. */
  const newProduct = async (name = `Temp ${Math.random().toString(36).slice(2, 8)}`, extra: Json = {}) => {
    const res = await api(emulator.production, 'POST', '/products/', {body: {name, prices: [{amount_type: 'fixed', price_amount: 1000}], ...extra}})
    expect(res.status, res.text).toBe(201)
    return res.body as Json
  }
  const newBenefit = async (description = 'Temp benefit') => {
    const res = await api(emulator.production, 'POST', '/benefits/', {body: {type: 'custom', description, properties: {note: 'hi'}}})
    expect(res.status, res.text).toBe(201)
    return res.body as Json
  }
  const newLink = async (label = 'Temp link') => {
    const product = await newProduct()
    const res = await api(emulator.production, 'POST', '/checkout-links/', {body: {payment_processor: 'stripe', products: [product.id], label}})
    expect(res.status, res.text).toBe(201)
    return res.body as Json
  }

  beforeAll(async () => {
    emulator = await startEmulator({orders: 60})
  })
  afterAll(async () => {
    await emulator?.stop()
  })
  beforeEach(() => {
    box = sandbox()
  })
  afterEach(() => box.cleanup())

  it('every command has a summary, a description and examples in its help', async () => {
    const commands = [
      'products create',
      'products update',
      'products archive',
      'products unarchive',
      'checkouts list',
      'checkouts get',
      'checkouts create',
      'checkout-links list',
      'checkout-links get',
      'checkout-links create',
      'checkout-links delete',
      'benefits list',
      'benefits get',
      'benefits create',
      'benefits update',
      'benefits delete',
      'benefits grants',
    ]
    const results = await Promise.all(commands.map((c) => till([...c.split(' '), '--help'])))
    results.forEach((r, i) => {
      ok(r)
      expect(r.stdout, commands[i]).toMatch(/^\S.+\n/)
      expect(r.stdout, commands[i]).toContain('DESCRIPTION')
      expect(r.stdout, commands[i]).toContain('EXAMPLES')
      expect(r.stdout, commands[i]).toContain(`$ till ${commands[i]}`)
    })
  })

  describe('products create', () => {
    it('a one-time product with a fixed price, shown as a table', async () => {
      const r = await till(['products', 'create', '--name', 'Sticker Pack', '--price', '12.00', '--description', 'Ten stickers', '-o', 'table'])
      ok(r)
      expect(r.stdout).toMatch(/^Name\s+Sticker Pack$/m)
      expect(r.stdout).toMatch(/^Type\s+one-time$/m)
      expect(r.stdout).toMatch(/^ {2}\$12\.00 {2}\S+$/m)
      const id = /^ID\s+(\S+)$/m.exec(r.stdout)![1]!
      const product = await get(`/products/${id}`)
      expect(product).toMatchObject({name: 'Sticker Pack', description: 'Ten stickers', recurring_interval: null})
      expect(product.prices).toHaveLength(1)
      expect(product.prices[0]).toMatchObject({amount_type: 'fixed', price_amount: 1200, price_currency: 'usd'})
    })

    it('a recurring product in minor units with metadata and benefits, as JSON', async () => {
      const [b1, b2] = [await newBenefit('Stickers'), await newBenefit('Mugs')]
      const r = await till([
        'products',
        'create',
        '--name',
        'Quarterly Box',
        '--interval',
        'month',
        '--interval-count',
        '3',
        '--amount-minor',
        '2500',
        '--currency',
        'EUR',
        '--metadata',
        'tier=gold',
        '--metadata',
        'box=yes',
        '--benefit',
        b1.id,
        '--benefit',
        b2.id,
        '--json',
      ])
      ok(r)
      const product = json(r)
      expect(product).toMatchObject({name: 'Quarterly Box', recurring_interval: 'month', recurring_interval_count: 3, metadata: {tier: 'gold', box: 'yes'}})
      expect(product.prices[0]).toMatchObject({amount_type: 'fixed', price_amount: 2500, price_currency: 'eur'})
      expect(product.benefits.map((b: Json) => b.id).sort()).toEqual([b1.id, b2.id].sort())
      expect((await get(`/products/${product.id}`)).benefits).toHaveLength(2)
    })

    it('pay what you want with bounds, and free prices (a fixed price of 0, not the deprecated free type)', async () => {
      const pwyw = await till([
        'products',
        'create',
        '--name',
        'Tip jar',
        '--pay-what-you-want',
        '--minimum',
        '1',
        '--maximum',
        '100',
        '--preset',
        '5',
        '--json',
      ])
      ok(pwyw)
      expect(json(pwyw).prices[0]).toMatchObject({amount_type: 'custom', minimum_amount: 100, maximum_amount: 10_000, preset_amount: 500})
      const free = await till(['products', 'create', '--name', 'Free sample', '--free', '--json'])
      ok(free)
      expect(json(free).prices[0]).toMatchObject({amount_type: 'fixed', price_amount: 0})
    })

    it('refuses bad input at once with exit 2, naming the flag, and creates nothing', async () => {
      const before = (await listAll(emulator.production, '/products/')).length
      await refused([
        [['products', 'create', '--price', '12.00'], /missing --name/],
        [['products', 'create', '--name', 'No price'], /missing --price/],
        [['products', 'create', '--name', 'Both', '--price', '1', '--free'], /one kind of price/],
        [['products', 'create', '--name', 'Count', '--price', '1', '--interval-count', '2'], /--interval-count needs --interval/],
        [['products', 'create', '--name', 'Min', '--price', '1', '--minimum', '1'], /--minimum applies to --pay-what-you-want/],
        [['products', 'create', '--name', 'Cents', '--price', '1.005'], /more decimals/],
        [['products', 'create', '--name', 'Meta', '--price', '1', '--metadata', 'novalue'], /--metadata takes key=value/],
      ])
      expect((await listAll(emulator.production, '/products/')).length).toBe(before)
    })

    it('asks for a missing name, how often it is billed, and the price on a terminal', async () => {
      const r = await tty(
        ['products', 'create', '--json'],
        [
          {when: /Product name/, send: `Prompted Product${ENTER}`},
          {when: /every month \(a subscription\)/, send: ENTER},
          {when: /Price in USD/, send: `7.25${ENTER}`},
        ],
      )
      ok(r)
      const product = (await listAll(emulator.production, '/products/', 'query=Prompted')).find((p: Json) => p.name === 'Prompted Product')
      expect(product?.prices[0]).toMatchObject({amount_type: 'fixed', price_amount: 725})
      expect(product?.is_recurring).toBe(false)
      // a subscription, when asked for
      const monthly = await tty(
        ['products', 'create', '--json'],
        [
          {when: /Product name/, send: `Prompted Monthly${ENTER}`},
          {when: /every month \(a subscription\)/, send: `\x1b[B${ENTER}`},
          {when: /Price in USD/, send: `9.00${ENTER}`},
        ],
      )
      ok(monthly)
      const plan = (await listAll(emulator.production, '/products/', 'query=Prompted')).find((p: Json) => p.name === 'Prompted Monthly')
      expect(plan).toMatchObject({is_recurring: true, recurring_interval: 'month'})
    })
  })

  describe('products update', () => {
    it('a new price replaces the old one (archived), metadata is merged, as JSON', async () => {
      const product = await newProduct('Old Name', {metadata: {keep: 'yes', drop: 'me'}})
      const r = await till([
        'products',
        'update',
        product.id,
        '--name',
        'New Name',
        '--price',
        '15.00',
        '--metadata',
        'tier=pro',
        '--metadata',
        'drop=',
        '--visibility',
        'private',
        '--json',
      ])
      ok(r)
      const updated = json(r)
      expect(updated).toMatchObject({name: 'New Name', visibility: 'private', metadata: {keep: 'yes', tier: 'pro'}})
      expect(updated.metadata).not.toHaveProperty('drop')
      const prices = (await get(`/products/${product.id}`)).prices
      expect(prices.find((p: Json) => p.id === product.prices[0].id)).toMatchObject({is_archived: true, price_amount: 1000})
      expect(prices.filter((p: Json) => !p.is_archived)).toEqual([expect.objectContaining({amount_type: 'fixed', price_amount: 1500})])
    })

    it('attaches and detaches benefits, shown as a table', async () => {
      const product = await newProduct()
      const [b1, b2] = [await newBenefit('One'), await newBenefit('Two')]
      ok(await till(['products', 'update', product.id, '--benefit', b1.id, '--benefit', b2.id]))
      const r = await till(['products', 'update', product.id, '--remove-benefit', b1.id, '-o', 'table', '--columns', 'id,name,benefits'])
      ok(r)
      expect(r.stdout).toMatch(new RegExp(`^ID\\s+${product.id}$`, 'm'))
      expect((await get(`/products/${product.id}`)).benefits.map((b: Json) => b.id)).toEqual([b2.id])
    })

    it('applies one change to every id read from stdin, one result each, a summary, exit 1 if any failed', async () => {
      const [p1, p2] = [await newProduct(), await newProduct()]
      const missing = unknownId()
      const r = await till(
        ['products', 'update', '-', '--visibility', 'draft', '--envelope', '-o', 'jsonl'],
        {},
        `${p1.id}\n${JSON.stringify({id: p2.id})}\n${missing}\n`,
      )
      expect(r.code, r.stderr).toBe(1)
      const results = linesOf(r.stdout).map((l) => JSON.parse(l))
      expect(results.map((x) => [x.id, x.ok])).toEqual([
        [p1.id, true],
        [p2.id, true],
        [missing, false],
      ])
      expect(results[2].error.exit_code).toBe(3)
      expect(r.stderr).toContain('3 ids: 2 ok, 1 failed.')
      expect((await get(`/products/${p1.id}`)).visibility).toBe('draft')
      expect((await get(`/products/${p2.id}`)).visibility).toBe('draft')
    })

    it('fails with exit 2 when nothing would change or a price flag is stray', async () => {
      const product = await newProduct()
      await refused([
        [['products', 'update', product.id], /nothing to update/],
        [['products', 'update', product.id, '--currency', 'eur'], /--currency applies to a new price/],
        [['products', 'update', product.id, '--preset', '2'], /--preset applies to --pay-what-you-want/],
      ])
    })
  })

  describe('products archive and unarchive', () => {
    it('without a terminal, archive needs --yes: exit 2 and nothing changed', async () => {
      const product = await newProduct()
      usage(await till(['products', 'archive', product.id]), /--yes is required to archive product/)
      expect((await get(`/products/${product.id}`)).is_archived).toBe(false)
    })

    it('with --yes it archives (table), and unarchive restores it (JSON)', async () => {
      const product = await newProduct('Archive Me')
      const r = await till(['products', 'archive', product.id, '--yes', '-o', 'table', '--columns', 'id,name,archived'])
      ok(r)
      expect(r.stdout).toMatch(/^Archived\s+yes$/m)
      expect((await get(`/products/${product.id}`)).is_archived).toBe(true)
      const back = await till(['products', 'unarchive', product.id, '--json'])
      ok(back)
      expect(json(back)).toMatchObject({id: product.id, is_archived: false})
      expect((await get(`/products/${product.id}`)).is_archived).toBe(false)
    })

    it('on a terminal it asks, naming the product; "n" cancels (exit 1), "y" archives', async () => {
      const product = await newProduct('Asked About')
      const no = await tty(['products', 'archive', product.id], [{when: /\(y\/N\)/, send: `n${ENTER}`}])
      expect(no.code, no.stdout).toBe(1)
      expect(no.stdout).toContain(`Archive product "Asked About" (${product.id}) (local, profile`)
      expect(no.stdout).toContain('Cancelled; nothing was changed.')
      expect((await get(`/products/${product.id}`)).is_archived).toBe(false)
      const yes = await tty(['products', 'archive', product.id], [{when: /\(y\/N\)/, send: `y${ENTER}`}])
      ok(yes)
      expect((await get(`/products/${product.id}`)).is_archived).toBe(true)
    })

    it('names the environment on a production profile', async () => {
      const product = await newProduct('Production One')
      const r = await tty(['products', 'archive', product.id], [{when: /\(y\/N\)/, send: `n${ENTER}`}], {TILL_ENV: 'production'})
      expect(r.code).toBe(1)
      expect(r.stdout).toMatch(/Archive product "Production One" \(\S+\) in PRODUCTION \(profile/)
    })

    it('archives every id read from stdin with --yes (and refuses without it)', async () => {
      const [p1, p2] = [await newProduct(), await newProduct()]
      const ids = `${p1.id}\n${p2.id}\n`
      usage(await till(['products', 'archive', '-'], {}, ids), /--yes is required to archive every product read from stdin/)
      expect((await get(`/products/${p1.id}`)).is_archived).toBe(false)
      const r = await till(['products', 'archive', '-', '--yes', '--envelope', '-o', 'tsv'], {}, ids)
      ok(r)
      expect(linesOf(r.stdout)).toEqual([`${p1.id}\tyes\tok\t`, `${p2.id}\tyes\tok\t`])
      expect(r.stderr).toContain('2 ids: 2 ok, 0 failed.')
      expect((await get(`/products/${p2.id}`)).is_archived).toBe(true)
    })
  })

  describe('checkouts', () => {
    it('create prints the URL alone on stdout, with the prefilled fields', async () => {
      const product = await newProduct('Checkout Product')
      const r = await till([
        'checkouts',
        'create',
        '--product',
        product.id,
        '--customer-email',
        'ada@example.com',
        '--external-customer',
        'user_42',
        '--success-url',
        'https://example.com/thanks',
        '--metadata',
        'campaign=spring',
      ])
      ok(r)
      expect(r.stderr).toBe('')
      expect(r.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/checkout\/polar_c_\w+\n$/)
      const checkout = (await listAll(emulator.production, '/checkouts/', `product_id=${product.id}`))[0]
      expect(checkout).toMatchObject({
        url: r.stdout.trim(),
        customer_email: 'ada@example.com',
        external_customer_id: 'user_42',
        metadata: {campaign: 'spring'},
        success_url: 'https://example.com/thanks',
      })
    })

    it('create --json prints the checkout; -o table shows it as a table', async () => {
      const product = await newProduct()
      const r = await till(['checkouts', 'create', '--product', product.id, '--json'])
      ok(r)
      expect(json(r)).toMatchObject({product_id: product.id, status: 'open', url: expect.stringContaining('/checkout/polar_c_')})
      const table = await till(['checkouts', 'create', '--product', product.id, '-o', 'table', '--columns', 'status,total_amount,url'])
      ok(table)
      expect(table.stdout).toMatch(/^Status\s+open$/m)
      expect(table.stdout).toMatch(/^Total\s+\$10\.00$/m)
    })

    it('the deprecated --customer-external-id still works, with a one-line warning', async () => {
      const product = await newProduct()
      const r = await till(['checkouts', 'create', '--product', product.id, '--customer-external-id', 'legacy_7', '--json'])
      ok(r)
      expect(json(r).external_customer_id).toBe('legacy_7')
      expect(linesOf(r.stderr)).toEqual(['Warning: --customer-external-id is deprecated; use --external-customer.'])
      const eq = await till(['checkouts', 'create', `--product=${product.id}`, '--customer-external-id=legacy_8'])
      ok(eq)
      expect(eq.stderr).toContain('deprecated')
    })

    it('a missing --product fails at once without a terminal, and is picked from a list on one', async () => {
      usage(await till(['checkouts', 'create']), /missing --product/)
      usage(await till(['checkouts', 'create', '--no-input']), /missing --product/)
      const r = await tty(['checkouts', 'create'], [{when: /Product to sell[\s\S]*❯/, send: ENTER}])
      ok(r)
      const url = /http:\/\/127\.0\.0\.1:\d+\/checkout\/polar_c_\w+/.exec(r.stdout)?.[0]
      expect(url, r.stdout).toBeDefined()
      const newest = (await get('/checkouts/?limit=1')).items[0]
      expect(newest.url).toBe(url)
      const firstSold = (await get('/products/?is_archived=false&limit=1')).items[0]
      expect(newest.product_id).toBe(firstSold.id)
    })

    it('list filters, as a table and as JSON; get by id and from stdin', async () => {
      const product = await newProduct('Listed Checkout Product')
      ok(await till(['checkouts', 'create', '--product', product.id, '--customer-email', 'grace@example.com']))
      const [table, list] = await Promise.all([
        till(['checkouts', 'list', '--product', product.id, '--status', 'open', '-o', 'table']),
        till(['checkouts', 'list', '--product', product.id, '--json']),
      ])
      ok(table)
      expect(linesOf(table.stdout)[0]).toMatch(/^ID\s+CREATED\s+STATUS\s+PRODUCT\s+CUSTOMER\s+TOTAL\s+EXPIRES$/)
      expect(table.stdout).toContain('Listed Checkout Product')
      expect(table.stdout).toContain('grace@example.com')
      ok(list)
      const items = json(list)
      expect(items).toHaveLength(1)
      const id = items[0].id
      const [one, tableOne, bulk, missing] = await Promise.all([
        till(['checkouts', 'get', id, '--json']),
        till(['checkouts', 'get', id, '-o', 'table']),
        till(['checkouts', 'get', '-', '-o', 'jsonl'], {}, `${id}\n`),
        till(['checkouts', 'get', unknownId()]),
      ])
      ok(one)
      // the API's object, without the deprecated fields till leaves out of its output
      const {
        subtotal_amount: _s,
        customer_external_id: _c,
        customer_billing_address_fields: _f,
        product_price_id: _pi,
        product_price: _pp,
        ...current
      } = await get(`/checkouts/${id}`)
      const shown = json(one)
      expect(shown).not.toHaveProperty('customer_external_id')
      expect({...shown, products: undefined}).toEqual({...current, products: undefined})
      expect(shown.external_customer_id).toBe(current.external_customer_id)
      ok(tableOne)
      expect(tableOne.stdout).toMatch(/^Customer email\s+grace@example\.com$/m)
      ok(bulk)
      // the same object as the single get, one JSON line per id
      expect(JSON.parse(bulk.stdout)).toEqual(shown)
      expect(missing.code).toBe(3)
    })
  })

  describe('checkout links', () => {
    it('create prints the URL; --json the link; list and get as table and JSON', async () => {
      const product = await newProduct('Linked Product')
      const r = await till(['checkout-links', 'create', '--product', product.id, '--label', 'Newsletter', '--no-discount-codes', '--metadata', 'src=mail'])
      ok(r)
      expect(r.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/checkout-links\/polar_cl_\w+\/redirect\n$/)
      const created = await till(['checkout-links', 'create', '--product', product.id, '--label', 'Second', '--json'])
      ok(created)
      const link = json(created)
      expect(link).toMatchObject({label: 'Second', allow_discount_codes: true, products: [expect.objectContaining({id: product.id})]})
      const [list, table, one] = await Promise.all([
        till(['checkout-links', 'list', '--product', product.id, '--json']),
        till(['checkout-links', 'list', '--product', product.id, '-o', 'table']),
        till(['checkout-links', 'get', link.id, '-o', 'table']),
      ])
      ok(list)
      const items = json(list)
      // newest first, as the other lists
      expect(items.map((l: Json) => l.label)).toEqual(['Second', 'Newsletter'])
      expect(items[1]).toMatchObject({allow_discount_codes: false, metadata: {src: 'mail'}, url: r.stdout.trim()})
      ok(table)
      expect(linesOf(table.stdout)[0]).toMatch(/^ID\s+CREATED\s+LABEL\s+PRODUCTS\s+URL$/)
      expect(linesOf(table.stdout)).toHaveLength(3)
      expect(table.stdout).toContain('Linked Product')
      ok(one)
      expect(one.stdout).toMatch(/^Label\s+Second$/m)
    })

    it('a missing --product is picked on a terminal, and fails without one', async () => {
      usage(await till(['checkout-links', 'create', '--label', 'x']), /missing --product/)
      const r = await tty(['checkout-links', 'create', '--json'], [{when: /Product the link sells[\s\S]*❯/, send: `${DOWN}${ENTER}`}])
      ok(r)
      const second = (await get('/products/?is_archived=false&limit=2')).items[1]
      const newest = (await listAll(emulator.production, '/checkout-links/')).at(-1)
      expect(newest.products.map((p: Json) => p.id)).toEqual([second.id])
    })

    it('delete needs --yes without a terminal; asks on one; deletes with --yes', async () => {
      const link = await newLink('Delete Me')
      usage(await till(['checkout-links', 'delete', link.id]), /--yes is required to delete checkout link/)
      expect(await status(`/checkout-links/${link.id}`)).toBe(200)
      const no = await tty(['checkout-links', 'delete', link.id], [{when: /\(y\/N\)/, send: `n${ENTER}`}])
      expect(no.code).toBe(1)
      expect(no.stdout).toContain(`Delete checkout link "Delete Me" (${link.id})`)
      expect(await status(`/checkout-links/${link.id}`)).toBe(200)
      const yes = await tty(['checkout-links', 'delete', link.id], [{when: /\(y\/N\)/, send: `y${ENTER}`}])
      ok(yes)
      expect(await status(`/checkout-links/${link.id}`)).toBe(404)
      const other = await newLink()
      const r = await till(['checkout-links', 'delete', other.id, '--yes'])
      ok(r)
      expect(r.stdout).toBe('')
      expect(r.stderr).toBe(`Deleted checkout link ${other.id}.\n`)
      expect(await status(`/checkout-links/${other.id}`)).toBe(404)
    })

    it('delete - removes every link read from stdin (--yes), reporting each', async () => {
      const [l1, l2] = [await newLink(), await newLink()]
      const r = await till(['checkout-links', 'delete', '-', '--yes', '--envelope', '--json'], {}, `${l1.id}\n${l2.id}\n${l1.id}\n`)
      expect(r.code).toBe(1)
      expect(json(r).map((x: Json) => [x.id, x.ok])).toEqual([
        [l1.id, true],
        [l2.id, true],
        [l1.id, false],
      ])
      expect(r.stderr).toContain('3 ids: 2 ok, 1 failed.')
      expect(await status(`/checkout-links/${l2.id}`)).toBe(404)
    })
  })

  describe('benefits', () => {
    it('create a custom benefit with a note (table) and a license-key benefit (JSON)', async () => {
      const custom = await till(['benefits', 'create', '--type', 'custom', '--description', 'Sticker mail', '--note', 'We post them', '-o', 'table'])
      ok(custom)
      expect(custom.stdout).toMatch(/^Type\s+custom$/m)
      // the detail view: the properties as an indented section
      expect(custom.stdout).toMatch(/^Properties$/m)
      expect(custom.stdout).toMatch(/^ {2}Note\s+We post them$/m)
      const keys = await till([
        'benefits',
        'create',
        '--type',
        'license_keys',
        '--description',
        'App license',
        '--prefix',
        'ACME',
        '--activation-limit',
        '3',
        '--customer-admin',
        '--usage-limit',
        '100',
        '--expires',
        '1y',
        '--metadata',
        'line=desktop',
        '--json',
      ])
      ok(keys)
      const benefit = json(keys)
      expect(benefit).toMatchObject({
        type: 'license_keys',
        description: 'App license',
        metadata: {line: 'desktop'},
        properties: {prefix: 'ACME', activations: {limit: 3, enable_customer_admin: true}, limit_usage: 100, expires: {ttl: 1, timeframe: 'year'}},
      })
      expect(await get(`/benefits/${benefit.id}`)).toEqual(benefit)
    })

    it('refuses a type-specific flag of another type, and a missing type or description without a terminal', async () => {
      const before = (await listAll(emulator.production, '/benefits/')).length
      await refused([
        [['benefits', 'create', '--type', 'custom', '--description', 'Nope', '--prefix', 'X'], /--prefix applies to license_keys benefits only/],
        [['benefits', 'create', '--type', 'license_keys', '--description', 'Nope', '--note', 'x'], /--note applies to custom benefits only/],
        [['benefits', 'create', '--description', 'No type'], /missing --type/],
        [['benefits', 'create', '--type', 'custom'], /missing --description/],
        [['benefits', 'create', '--type', 'discord', '--description', 'Bad', '--properties', '[1]'], /--properties must be a JSON object/],
      ])
      expect((await listAll(emulator.production, '/benefits/')).length).toBe(before)
    })

    it('asks for the type and description on a terminal', async () => {
      const r = await tty(
        ['benefits', 'create', '--json'],
        [
          {when: /Benefit type[\s\S]*❯/, send: ENTER},
          {when: /Description shown to customers/, send: `Prompted perk${ENTER}`},
        ],
      )
      ok(r)
      const found = (await listAll(emulator.production, '/benefits/', 'query=Prompted')).find((b: Json) => b.description === 'Prompted perk')
      expect(found?.type).toBe('custom')
    })

    it('list by type as a table and as JSON; get', async () => {
      const table = await till(['benefits', 'list', '--type', 'license_keys', '-o', 'table'])
      ok(table)
      expect(linesOf(table.stdout)[0]).toMatch(/^ID\s+CREATED\s+TYPE\s+DESCRIPTION\s+DETAIL$/)
      expect(table.stdout).toMatch(/License key\s+prefix TILL, 3 activations/)
      const list = await till(['benefits', 'list', '--type', 'custom', '--all', '--json'])
      ok(list)
      const items = json(list)
      expect(items.length).toBeGreaterThan(0)
      expect(items.every((b: Json) => b.type === 'custom')).toBe(true)
      const one = await till(['benefits', 'get', items[0].id, '--json'])
      ok(one)
      expect(json(one)).toEqual(items[0])
    })

    it('update merges properties and metadata', async () => {
      const created = await api(emulator.production, 'POST', '/benefits/', {
        body: {
          type: 'license_keys',
          description: 'Keys',
          properties: {prefix: 'OLD', activations: {limit: 2, enable_customer_admin: false}},
          metadata: {a: '1', b: '2'},
        },
      })
      const id = created.body.id
      const r = await till(['benefits', 'update', id, '--activation-limit', '5', '--metadata', 'b=', '--metadata', 'c=3', '--description', 'Keys v2', '--json'])
      ok(r)
      expect(json(r)).toMatchObject({
        description: 'Keys v2',
        metadata: {a: '1', c: '3'},
        properties: {prefix: 'OLD', activations: {limit: 5, enable_customer_admin: false}},
      })
      expect(json(r).metadata).not.toHaveProperty('b')
      const table = await till(['benefits', 'update', id, '--prefix', 'NEW', '-o', 'table', '--columns', 'id,detail'])
      ok(table)
      expect(table.stdout).toMatch(/^Detail\s+prefix NEW, 5 activations$/m)
      usage(await till(['benefits', 'update', id]), /nothing to update/)
    })

    it('delete needs --yes without a terminal; asks on one; --yes deletes', async () => {
      const benefit = await newBenefit('Doomed perk')
      usage(await till(['benefits', 'delete', benefit.id]), /--yes is required to delete benefit/)
      expect(await status(`/benefits/${benefit.id}`)).toBe(200)
      const no = await tty(['benefits', 'delete', benefit.id], [{when: /\(y\/N\)/, send: `n${ENTER}`}])
      expect(no.code).toBe(1)
      expect(no.stdout).toContain(`Delete benefit "Doomed perk" (${benefit.id}) and revoke it from every customer who has it`)
      expect(await status(`/benefits/${benefit.id}`)).toBe(200)
      const yes = await tty(['benefits', 'delete', benefit.id], [{when: /\(y\/N\)/, send: `y${ENTER}`}])
      ok(yes)
      expect(await status(`/benefits/${benefit.id}`)).toBe(404)
      const other = await newBenefit()
      const r = await till(['benefits', 'delete', other.id, '--yes', '--json'])
      ok(r)
      expect(json(r)).toEqual({id: other.id, deleted: true})
      expect(await status(`/benefits/${other.id}`)).toBe(404)
    })

    it("grants lists a benefit's grants, filtered by state and customer, as a table and as JSON", async () => {
      const support = (await get('/benefits/?type=custom&query=Priority')).items[0]
      const all = await listAll(emulator.production, `/benefits/${support.id}/grants`)
      const revoked = all.filter((g: Json) => !g.is_granted)
      expect(revoked.length).toBeGreaterThan(0)
      const customer = all[0].customer_id
      const [table, no, mine, bulk] = await Promise.all([
        till(['benefits', 'grants', support.id, '--granted', '--all', '-o', 'table']),
        till(['benefits', 'grants', support.id, '--no-granted', '--all', '--json']),
        till(['benefits', 'grants', support.id, '--customer', customer, '--json']),
        till(['benefits', 'grants', '-', '--limit', '2', '-o', 'jsonl'], {}, `${support.id}\n`),
      ])
      ok(table)
      expect(linesOf(table.stdout)[0]).toMatch(/^ID\s+CREATED\s+CUSTOMER\s+GRANTED\s+GRANTED AT\s+REVOKED AT$/)
      expect(linesOf(table.stdout)).toHaveLength(all.length - revoked.length + 1)
      ok(no)
      expect(json(no).map((g: Json) => g.id)).toEqual(revoked.map((g: Json) => g.id))
      ok(mine)
      expect(json(mine).every((g: Json) => g.customer_id === customer)).toBe(true)
      expect(json(mine).length).toBeGreaterThan(0)
      ok(bulk)
      // the grants of each benefit read from stdin, as the single command prints them
      expect(linesOf(bulk.stdout).map((l) => JSON.parse(l).benefit_id)).toEqual([support.id, support.id])
    })
  })
})
