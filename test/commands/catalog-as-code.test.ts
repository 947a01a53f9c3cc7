// `till catalog pull|validate|plan|apply` as processes against one emulator, between its two isolated
// environments (profile "sb" on the sandbox, "prod" on production, emptied first as a new organization):
// the sandbox catalog (meters, custom fields, benefits, products with metered prices and attached fields,
// discounts, checkout links, a webhook endpoint) recreated in production, keys and all; edits planned and
// applied exactly, objects removed from the file kept unless --prune, a refusal injected halfway and a
// re-run that completes.
import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {expectNoToken, KEY, linesOf, runAnswering, sandbox, sh, TILL, type CliResult, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {api, control as controlRoute, listAll, startEmulator, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'

describe('catalog as code between sandbox and production', () => {
  let emulator: Emulator
  let box: Sandbox
  let file: string
  const outputs: string[] = []

  const till = async (args: string[], input?: string): Promise<CliResult> => {
    const r = await runInProcess(args, {env: box.env(), input})
    outputs.push(r.stdout, r.stderr)
    return r
  }
  const control = async (env: EnvHandle, path: string, body: unknown = {}) => {
    const res = await controlRoute(env, 'POST', path, {body})
    expect(res.status, res.text).toBe(200)
    return res.body
  }
  const products = (env: EnvHandle, query = ''): Promise<Json[]> => listAll(env, '/products/', query)
  const edit = (from: string, to: string) => {
    const text = readFileSync(file, 'utf8')
    expect(text.split(from)).toHaveLength(2)
    writeFileSync(file, text.replace(from, to))
  }
  /** Removes one entry (its key line and everything under it) from the file's section. */
  const removeEntry = (section: string, key: string) => {
    const text = readFileSync(file, 'utf8')
    const from = text.indexOf(`\n  ${key}:\n`, text.indexOf(`\n${section}:\n`))
    expect(from, `${section}.${key}`).toBeGreaterThan(0)
    const next = /\n(?: {2})?\S/.exec(text.slice(from + 1))
    const to = next ? from + 1 + next.index : text.length - 1
    const rest = text.slice(0, from) + text.slice(to)
    writeFileSync(file, rest.replace(new RegExp(`^${section}:\n(?! )`, 'm'), `${section}: {}\n`))
  }
  const planJson = async (profile: string, ...extra: string[]) => {
    const r = await till(['catalog', 'plan', file, '-p', profile, '--json', ...extra])
    return {code: r.code, stderr: r.stderr, plan: JSON.parse(r.stdout)}
  }

  beforeAll(async () => {
    emulator = await startEmulator()
    box = sandbox()
    file = join(box.root, 'catalog.yaml')
    for (const [name, env] of [
      ['sb', emulator.sandbox],
      ['prod', emulator.production],
    ] as const) {
      const r = await runInProcess(['auth', 'login', '--environment', env.name, '--url', env.url, '--name', name, '--token-stdin'], {
        env: box.env(),
        input: `${env.token}\n`,
      })
      expect(r.code, r.stderr).toBe(0)
    }
    await control(emulator.production, '/empty')
    // The whole seeded sandbox catalog: pull leaves out, with a warning, what the file does not carry (a
    // downloadables benefit's uploaded files belong to one environment; seat-based prices).
    // Beside the seeded meter, discounts and custom field: a meter no product uses, a custom field
    // attached to a product, a discount restricted to it, a discount on a checkout link and a webhook endpoint.
    const made = async (path: string, body: Json) => {
      const res = await api(emulator.sandbox, 'POST', path, {body})
      expect(res.status, res.text).toBe(201)
      return res.body as Json
    }
    await made('/meters/', {
      name: 'Storage',
      filter: {
        conjunction: 'or',
        clauses: [
          {property: 'name', operator: 'eq', value: 'storage.used'},
          {conjunction: 'and', clauses: [{property: 'gb', operator: 'gt', value: 0}]},
        ],
      },
      aggregation: {func: 'max', property: 'gb'},
      unit: 'custom',
      custom_label: 'GB',
      custom_multiplier: 1,
      metadata: {team: 'infra'},
    })
    const size = await made('/custom-fields/', {
      type: 'select',
      slug: 'team_size',
      name: 'Team size',
      properties: {
        form_label: 'Team size',
        options: [
          {value: 'small', label: '1-10'},
          {value: 'large', label: '11+'},
        ],
      },
    })
    const team = (await products(emulator.sandbox)).find((p) => p.name === 'Team Plan')
    const company = (await listAll(emulator.sandbox, '/custom-fields/')).find((f) => f.slug === 'company')
    const attach = await api(emulator.sandbox, 'PATCH', `/products/${team.id}`, {
      body: {
        attached_custom_fields: [
          {custom_field_id: size.id, required: true},
          {custom_field_id: company.id, required: false},
        ],
      },
    })
    expect(attach.status, attach.text).toBe(200)
    await made('/discounts/', {
      name: 'Team launch',
      type: 'fixed',
      amounts: {usd: 2500},
      duration: 'repeating',
      duration_in_months: 2,
      code: 'TEAMLAUNCH',
      max_redemptions: 50,
      ends_at: '2027-01-01T00:00:00Z',
      products: [team.id],
    })
    const welcome = (await listAll(emulator.sandbox, '/discounts/')).find((d) => d.code === 'WELCOME20')
    const link = (await listAll(emulator.sandbox, '/checkout-links/')).find((l) => l.label === 'Pro Plan link')
    expect((await api(emulator.sandbox, 'PATCH', `/checkout-links/${link.id}`, {body: {discount_id: welcome.id}})).status).toBe(200)
    const hook = await api(emulator.sandbox, 'POST', '/webhooks/endpoints', {
      body: {url: 'https://hooks.example.com/polar', name: 'Orders', format: 'raw', events: ['order.paid', 'order.refunded']},
    })
    expect(hook.status, hook.text).toBe(201)
  })
  afterAll(async () => {
    const secrets = [...(await listAll(emulator.production, '/webhooks/endpoints')), ...(await listAll(emulator.sandbox, '/webhooks/endpoints'))].map((w) =>
      String(w.secret),
    )
    expect(secrets.length).toBeGreaterThan(0)
    for (const text of outputs) {
      expectNoToken(text, emulator.production.token)
      expectNoToken(text, emulator.sandbox.token)
      for (const secret of secrets) expect(text).not.toContain(secret)
    }
    box?.cleanup()
    await emulator?.stop()
  })

  it('pulls the sandbox catalog into one file named by keys, without ids, and the file validates', async () => {
    const r = await till(['catalog', 'pull', '-p', 'sb', '--out', file])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('Warning: product team-seats is left out: it has a seat-based price, which the file cannot express yet (apply keeps it)\n')
    expect(r.stderr).toContain(
      'Warning: benefit downloadable-assets is left out: it names uploaded files of its environment, which the file cannot express yet (apply keeps it)\n',
    )
    expect(r.stderr).toContain(
      `Wrote 2 meters, 2 custom fields, 6 benefits, 12 products, 3 discounts, 3 checkout links, 1 webhook endpoint from profile sb (sandbox) to ${file}.`,
    )
    const text = readFileSync(file, 'utf8')
    expect(text).toMatch(/^version: 1$/m)
    expect(text).toContain('  pro-plan:\n    name: Pro Plan\n')
    expect(text).toContain('        amount: "29.00"\n        currency: usd\n')
    expect(text).not.toContain('legacy-plan') // archived: not part of the catalog
    // ids never: a meter credit, a metered price, an attached field and a restricted discount by key
    for (const p of await products(emulator.sandbox)) expect(text).not.toContain(p.id)
    for (const m of await listAll(emulator.sandbox, '/meters/')) expect(text).not.toContain(m.id)
    for (const f of await listAll(emulator.sandbox, '/custom-fields/')) expect(text).not.toContain(f.id)
    expect(text).toContain(
      '  monthly-api-credits:\n    type: meter_credit\n    description: Monthly API credits\n    visibility: public\n    properties:\n      meter: api-calls\n',
    )
    expect(text).toContain(
      '    prices:\n      - type: metered\n        meter: api-calls\n        unit_amount: "0.005"\n        currency: usd\n        cap: "1000.00"\n',
    )
    expect(text).toContain('    custom_fields:\n      - field: team-size\n        required: true\n      - field: company\n        required: false\n')
    expect(text).toContain(
      '  team-launch:\n    name: Team launch\n    type: fixed\n    amounts:\n      usd: "25.00"\n    duration: repeating\n    duration_in_months: 2\n    code: TEAMLAUNCH\n',
    )
    expect(text).toContain('    products:\n      - team-plan\n    metadata: {}\n  welcome-20:\n')
    expect(text).toContain('  pro-plan-link:\n    label: Pro Plan link\n    products:\n      - pro-plan\n    discount: welcome-20\n')
    // a webhook endpoint without its signing secret
    expect(text).toContain(
      'webhook_endpoints:\n  orders:\n    url: https://hooks.example.com/polar\n    name: Orders\n    format: raw\n    events:\n      - order.paid\n      - order.refunded\n',
    )
    expect(text).not.toMatch(/secret|whsec_/)
    const v = await till(['catalog', 'validate', file])
    expect(v.code, v.stderr).toBe(0)
    expect(v.stderr).toContain('is a valid catalog: 2 meters, 2 custom fields, 6 benefits, 12 products, 3 discounts, 3 checkout links, 1 webhook endpoint.')
    // the same file on stdout
    const out = await till(['catalog', 'pull', '-p', 'sb'])
    expect(out.stdout).toBe(text)
    // the sandbox matches its own file but for the keys to record: what the file leaves out (a
    // downloadable on three products) stays, even with --prune
    const own = await planJson('sb', '--prune')
    expect(own.plan.steps.filter((s: Json) => s.action !== 'update').map((s: Json) => `${s.action} ${s.key}: ${s.note}`)).toEqual([
      'extra team-seats: not in the file: kept (it has a seat-based price, which the file cannot express yet)',
      'extra downloadable-assets: not in the file: kept (it names uploaded files of its environment, which the file cannot express yet)',
    ])
    // every object but the webhook endpoint, which has no metadata to record its key in
    expect(own.plan.steps.filter((s: Json) => s.action === 'update')).toHaveLength(28)
    for (const step of own.plan.steps.filter((s: Json) => s.action === 'update')) expect(step.changes.map((c: Json) => c.field)).toEqual(['metadata.key'])
    // applied to the sandbox, with a benefit more on a product: its downloadable stays attached
    const more = join(box.root, 'more.yaml')
    const iconAt = text.indexOf('  icon-pack:\n')
    writeFileSync(more, text.slice(0, iconAt) + text.slice(iconAt).replace('    benefits: []\n', '    benefits: [beta-features]\n'))
    const applied = await till(['catalog', 'apply', more, '-p', 'sb', '--prune', '--yes'])
    expect(applied.code, applied.stderr).toBe(0)
    expect(linesOf(applied.stdout)).toHaveLength(28)
    const icon = (await products(emulator.sandbox)).find((p) => p.name === 'Icon Pack')
    expect(icon.benefits.map((b: Json) => b.description).sort()).toEqual(['Beta features', 'Downloadable assets'])
    expect(icon.metadata).toEqual({key: 'icon-pack'})
    expect((await till(['catalog', 'apply', file, '-p', 'sb', '--yes'])).stdout).toMatch(/^updated product icon-pack \(\S+\)\n$/)
    expect((await products(emulator.sandbox)).find((p) => p.name === 'Icon Pack').benefits.map((b: Json) => b.description)).toEqual(['Downloadable assets'])
    expect((await till(['catalog', 'pull', '-p', 'sb'])).stdout).toBe(text)
  })

  it('plans every create against the empty production (exit 10), writing nothing', async () => {
    const r = await till(['catalog', 'plan', file, '-p', 'prod'])
    expect(r.code, r.stderr).toBe(10)
    expect(r.stdout).toContain(`Plan for PRODUCTION (profile prod, ${emulator.production.url}): 29 to create, 0 to update, 0 to archive.`)
    expect(r.stdout).toContain('+ benefit priority-support\n    type: custom\n')
    expect(r.stdout).toContain(
      '+ meter storage\n    name: "Storage"\n    filter: {"clauses":[{"operator":"eq","property":"name","value":"storage.used"},{"clauses":[{"operator":"gt","property":"gb","value":0}],"conjunction":"and"}],"conjunction":"or"}\n    aggregation: {"func":"max","property":"gb"}\n',
    )
    expect(r.stdout).toContain(
      '+ product api-usage\n    name: "API Usage"\n    billing: every 1 month\n    prices: 0.005 USD per unit of meter api-calls (up to 1000.00 USD a period)\n',
    )
    expect(r.stdout).toContain('    custom_fields: team-size (required), company\n')
    expect(r.stdout).toContain(
      '+ discount team-launch\n    name: "Team launch"\n    amount: 25.00 USD\n    duration: repeating, 2 months\n    code: TEAMLAUNCH\n    products: team-plan\n',
    )
    expect(r.stdout).toMatch(
      /\+ product pro-plan\n {4}name: "Pro Plan"\n {4}billing: every 1 month\n {4}prices: 29\.00 USD\n {4}benefits: discord-community, license-key, priority-support\n/,
    )
    const {code, plan} = await planJson('prod')
    expect(code).toBe(10)
    expect(plan.counts).toEqual({create: 29, update: 0, archive: 0, extra: 0})
    expect(plan.steps.slice(-4).map((s: Json) => `${s.action} ${s.key}`)).toEqual([
      'create pro-plan-link',
      'create pro-plan-yearly-link',
      'create starter-plan-link',
      'create orders',
    ])
    expect(plan.target).toEqual({profile: 'prod', environment: 'production', base_url: emulator.production.url})
    // dependency order: what products use first, then products, then what refers to them
    expect([...new Set(plan.steps.map((s: Json) => s.kind))]).toEqual([
      'meters',
      'custom_fields',
      'benefits',
      'products',
      'discounts',
      'checkout_links',
      'webhook_endpoints',
    ])
    expect(await products(emulator.production)).toEqual([])
  })

  it('needs --yes in production without a terminal, then creates everything; a second plan shows nothing', async () => {
    const refused = await till(['catalog', 'apply', file, '-p', 'prod'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/^Error: --yes is required to apply .* when not running interactively \(this is PRODUCTION, profile prod\)$/m)
    expect(await products(emulator.production)).toEqual([])

    const r = await till(['catalog', 'apply', file, '-p', 'prod', '--yes'])
    expect(r.code, r.stderr).toBe(0)
    const lines = linesOf(r.stdout)
    expect(lines).toHaveLength(29)
    expect(lines[0]).toMatch(/^created meter api-calls \([0-9a-f-]{36}\)$/)
    expect(lines.filter((l) => l.startsWith('created product '))).toHaveLength(12)
    expect(r.stderr).toContain('Applied to PRODUCTION')
    // the new endpoint's secret is not shown: stderr says how to get one
    const [hook] = await listAll(emulator.production, '/webhooks/endpoints')
    expect(lines.at(-1)).toBe(`created webhook endpoint orders (${hook.id})`)
    expect(r.stderr).toContain(
      `Webhook endpoint orders (${hook.id}) has a new signing secret, which till does not show: get one for your receiver with "till webhooks endpoints reset-secret ${hook.id}"`,
    )
    expect(`${r.stdout}${r.stderr}`).not.toContain(hook.secret)

    const again = await till(['catalog', 'plan', file, '-p', 'prod'])
    expect(again.code, again.stderr).toBe(0)
    expect(again.stdout).toContain('Nothing to do: the environment matches the file.')
    const applyAgain = await till(['catalog', 'apply', file, '-p', 'prod'])
    expect(applyAgain.code, applyAgain.stderr).toBe(0)
    expect(applyAgain.stdout).toBe('')

    // keys and all: production pulled after apply is the sandbox's file
    const pulled = await till(['catalog', 'pull', '-p', 'prod'])
    expect(pulled.stdout).toBe(readFileSync(file, 'utf8'))
    const pro = (await products(emulator.production)).find((p) => p.name === 'Pro Plan')
    expect(pro.metadata).toEqual({tier: 'pro', key: 'pro-plan'})
    expect(pro.benefits.map((b: Json) => b.description).sort()).toEqual(['Discord community', 'License key', 'Priority support'])
    const link = (await listAll(emulator.production, '/checkout-links/')).find((l) => l.label === 'Pro Plan link')
    expect(link.products.map((p: Json) => p.id)).toEqual([pro.id])
    expect(link.metadata).toEqual({key: 'pro-plan-link'})
    expect(link.discount_id).toBe((await listAll(emulator.production, '/discounts/')).find((d) => d.code === 'WELCOME20').id)
    // the references by key became the production's ids
    const meter = (await listAll(emulator.production, '/meters/')).find((m) => m.name === 'API calls')
    const usage = (await products(emulator.production)).find((p) => p.name === 'API Usage')
    expect(usage.prices.map((p: Json) => [p.amount_type, p.meter_id, p.unit_amount, p.cap_amount])).toEqual([['metered_unit', meter.id, '0.5', 100_000]])
    const credits = (await listAll(emulator.production, '/benefits/')).find((b) => b.type === 'meter_credit')
    expect(credits.properties).toEqual({meter_id: meter.id, units: 1000, rollover: false})
    const team = (await products(emulator.production)).find((p) => p.name === 'Team Plan')
    const fields = await listAll(emulator.production, '/custom-fields/')
    expect(team.attached_custom_fields.map((a: Json) => [a.custom_field_id, a.required])).toEqual([
      [fields.find((f) => f.slug === 'team_size').id, true],
      [fields.find((f) => f.slug === 'company').id, false],
    ])
    const launch = (await listAll(emulator.production, '/discounts/')).find((d) => d.code === 'TEAMLAUNCH')
    expect(launch.products.map((p: Json) => p.id)).toEqual([team.id])
    expect(launch).toMatchObject({amounts: {usd: 2500}, duration_in_months: 2, max_redemptions: 50, metadata: {key: 'team-launch'}})
  })

  it('plans exactly a changed price, benefit, meter name and discount name, and apply converges (the old price archived)', async () => {
    edit('        amount: "29.00"\n', '        amount: "35.50"\n')
    edit('note: Write to support@example.com with your order number.', 'note: Write to help@example.com.')
    edit('  api-calls:\n    name: API calls\n', '  api-calls:\n    name: API requests\n')
    edit('    name: Welcome 20%\n', '    name: Welcome twenty\n')
    const {code, plan} = await planJson('prod')
    expect(code).toBe(10)
    expect(plan.counts).toEqual({create: 0, update: 4, archive: 0, extra: 0})
    expect(plan.steps.map((s: Json) => [s.kind, s.key, s.changes.map((c: Json) => `${c.field}: ${c.from} -> ${c.to}`)])).toEqual([
      ['meters', 'api-calls', ['name: "API calls" -> "API requests"']],
      ['benefits', 'priority-support', ['properties.note: "Write to support@example.com with your order number." -> "Write to help@example.com."']],
      ['products', 'pro-plan', ['prices: 29.00 USD -> 35.50 USD']],
      ['discounts', 'welcome-20', ['name: "Welcome 20%" -> "Welcome twenty"']],
    ])
    const text = await till(['catalog', 'plan', file, '-p', 'prod'])
    expect(text.stdout).toContain(
      '    prices: 29.00 USD -> 35.50 USD\n      (the service does not edit a price: a new price is created and the old one archived',
    )

    const r = await till(['catalog', 'apply', file, '-p', 'prod', '--yes'])
    expect(r.code, r.stderr).toBe(0)
    expect(linesOf(r.stdout).map((l) => l.replace(/ \(.*\)$/, ''))).toEqual([
      'updated meter api-calls',
      'updated benefit priority-support',
      'updated product pro-plan',
      'updated discount welcome-20',
    ])
    const pro = (await products(emulator.production)).find((p) => p.name === 'Pro Plan')
    expect(pro.prices.map((p: Json) => [p.price_amount, p.is_archived])).toEqual([
      [2900, true],
      [3550, false],
    ])
    expect((await listAll(emulator.production, '/meters/')).map((m) => m.name).sort()).toEqual(['API requests', 'Storage'])
    expect((await listAll(emulator.production, '/discounts/')).find((d) => d.code === 'WELCOME20')).toMatchObject({
      name: 'Welcome twenty',
      basis_points: 2000,
      metadata: {campaign: 'welcome', key: 'welcome-20'},
    })
    expect((await planJson('prod')).code).toBe(0)
  })

  it('reports objects removed from the file; --prune archives a product and a meter, disables an endpoint, keeps a discount', async () => {
    for (const [section, key] of [
      ['meters', 'storage'],
      ['products', 'icon-pack'],
      ['discounts', '5-off-for-3-months'],
      ['webhook_endpoints', 'orders'],
    ])
      removeEntry(section!, key!)
    expect(readFileSync(file, 'utf8')).toMatch(/^webhook_endpoints: \{\}$/m)

    const kept = await till(['catalog', 'plan', file, '-p', 'prod'])
    expect(kept.code, kept.stderr).toBe(0)
    expect(kept.stdout).toContain('0 to create, 0 to update, 0 to archive, 4 not in the file (kept).')
    expect(kept.stdout).toContain('! product icon-pack: not in the file: kept (--prune archives it)')
    expect(kept.stdout).toContain('! meter storage: not in the file: kept (--prune archives it)')
    expect(kept.stdout).toContain('! webhook endpoint orders: no entry has its URL: kept (--prune disables it)')
    expect(kept.stdout).toContain(
      '! discount 5-off-for-3-months: not in the file: kept (the service cannot archive a discount, only delete it (till discounts delete); an ends_at in the file stops its use)',
    )
    const applied = await till(['catalog', 'apply', file, '-p', 'prod', '--yes'])
    expect(applied.code).toBe(0)
    expect((await products(emulator.production)).find((p) => p.name === 'Icon Pack').is_archived).toBe(false)

    const pruning = await planJson('prod', '--prune')
    expect(pruning.code).toBe(10)
    // the kinds that use others first: products before their meters
    expect(pruning.plan.steps.map((s: Json) => `${s.action} ${s.key}`)).toEqual([
      'archive orders',
      'extra 5-off-for-3-months',
      'archive icon-pack',
      'archive storage',
    ])
    const pruned = await till(['catalog', 'apply', file, '-p', 'prod', '--prune', '--yes', '--json'])
    expect(pruned.code, pruned.stderr).toBe(0)
    const icon = (await products(emulator.production)).find((p) => p.name === 'Icon Pack')
    const storage = (await listAll(emulator.production, '/meters/')).find((m) => m.name === 'Storage')
    const [hook] = await listAll(emulator.production, '/webhooks/endpoints')
    expect(JSON.parse(pruned.stdout)).toEqual({
      done: [
        {kind: 'webhook_endpoints', noun: 'webhook endpoint', key: 'orders', action: 'archive', id: hook.id, verb: 'disabled'},
        {kind: 'products', noun: 'product', key: 'icon-pack', action: 'archive', id: icon.id},
        {kind: 'meters', noun: 'meter', key: 'storage', action: 'archive', id: storage.id},
      ],
      failed: null,
      not_done: [],
    })
    expect(icon.is_archived).toBe(true)
    expect(storage.archived_at).not.toBeNull()
    expect(hook.enabled).toBe(false)
    expect((await listAll(emulator.production, '/discounts/')).map((d) => d.name)).toContain('$5 off for 3 months')
    expect((await planJson('prod', '--prune')).code).toBe(0)
  })

  it('asks on a terminal before changing production: no changes nothing, yes applies', async () => {
    edit('    description: Try the basics at no cost.\n', '    description: The basics, free.\n')
    const command = `${TILL} ${['catalog', 'apply', file, '-p', 'prod'].map(sh).join(' ')}`
    const no = await runAnswering(command, box.env(), [{when: /in PRODUCTION \(profile prod\)\?/, send: `n${KEY.enter}`}])
    outputs.push(no.stdout)
    expect(no.unanswered).toBe(0)
    expect(no.code).toBe(1)
    expect(no.stdout).toContain('~ product free-tier\n    description: "Try the basics at no cost." -> "The basics, free."')
    expect(no.stdout).toContain('Cancelled; nothing was changed.')
    expect((await products(emulator.production)).find((p) => p.name === 'Free Tier').description).toBe('Try the basics at no cost.')
    const yes = await runAnswering(command, box.env(), [{when: /in PRODUCTION \(profile prod\)\?/, send: `y${KEY.enter}`}])
    outputs.push(yes.stdout)
    expect(yes.code, yes.stdout).toBe(0)
    expect(yes.stdout).toMatch(/updated product free-tier \([0-9a-f-]{36}\)/)
    expect((await products(emulator.production)).find((p) => p.name === 'Free Tier').description).toBe('The basics, free.')
  })

  it('stops at a refusal halfway with what was done and what was not; a re-run completes', async () => {
    await control(emulator.production, '/empty')
    await control(emulator.production, '/products/refuse', {name: 'Lifetime License'})
    const r = await till(['catalog', 'apply', file, '-p', 'prod', '--yes'])
    expect(r.code).toBe(2)
    const done = linesOf(r.stdout).filter((l) => l.startsWith('created '))
    expect(done.map((l) => l.replace(/ \(.*\)$/, '')).slice(-4)).toEqual([
      'created product api-usage',
      'created product consulting-hour',
      'created product e-book-shipping-software',
      'created product free-tier',
    ])
    expect(linesOf(r.stdout).filter((l) => l.startsWith('not done: '))).toEqual([
      'not done: create product pay-what-you-want-donation',
      'not done: create product pro-plan',
      'not done: create product pro-plan-yearly',
      'not done: create product sample-pack',
      'not done: create product starter-plan',
      'not done: create product team-plan',
      'not done: create discount team-launch',
      'not done: create discount welcome-20',
      'not done: create checkout link pro-plan-link',
      'not done: create checkout link pro-plan-yearly-link',
      'not done: create checkout link starter-plan-link',
    ])
    expect(r.stderr).toContain('Error: apply stopped at create product lifetime-license: the API rejected the input\n  body.name: The product was refused')
    expect(r.stderr).toContain(`${done.length} of ${done.length + 12} changes were made; 12 were not`)
    expect(r.stderr).toContain('Hint: fix the cause and run the same apply again')
    // a meter, two custom fields and six benefits before the products
    expect(done).toHaveLength(13)
    expect(await products(emulator.production)).toHaveLength(4)

    const rerun = await till(['catalog', 'apply', file, '-p', 'prod', '--yes'])
    expect(rerun.code, rerun.stderr).toBe(0)
    expect(linesOf(rerun.stdout).map((l) => l.replace(/ \(.*\)$/, ''))).toEqual([
      'created product lifetime-license',
      'created product pay-what-you-want-donation',
      'created product pro-plan',
      'created product pro-plan-yearly',
      'created product sample-pack',
      'created product starter-plan',
      'created product team-plan',
      'created discount team-launch',
      'created discount welcome-20',
      'created checkout link pro-plan-link',
      'created checkout link pro-plan-yearly-link',
      'created checkout link starter-plan-link',
    ])
    expect((await planJson('prod')).code).toBe(0)
    expect((await till(['catalog', 'pull', '-p', 'prod'])).stdout).toBe(readFileSync(file, 'utf8'))
  })

  it("plans a meter's new filter with the service's rule, and stops at its refusal once the meter counts events", async () => {
    const ingested = await api(emulator.production, 'POST', '/events/ingest', {body: {events: [{name: 'api.call', external_customer_id: 'catalog_user'}]}})
    expect(ingested.status, ingested.text).toBe(200)
    edit('          value: api.call\n', '          value: api.request\n')
    const {code, plan} = await planJson('prod')
    expect(code).toBe(10)
    expect(plan.steps).toEqual([expect.objectContaining({action: 'update', kind: 'meters', key: 'api-calls', blocked: null})])
    expect(plan.steps[0].changes).toEqual([
      {
        field: 'filter',
        from: '{"clauses":[{"operator":"eq","property":"name","value":"api.call"}],"conjunction":"and"}',
        to: '{"clauses":[{"operator":"eq","property":"name","value":"api.request"}],"conjunction":"and"}',
        note: 'the service refuses this once the meter has aggregated events: then give the changed meter a new key (and archive the old one with --prune)',
      },
    ])
    const r = await till(['catalog', 'apply', file, '-p', 'prod', '--yes'])
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain(
      "Error: apply stopped at update meter api-calls: the API rejected the input\n  body.filter: This field can't be updated because the meter is already aggregating events.",
    )
    expect(r.stderr).toContain('0 of 1 changes were made; 1 were not')
    expect((await listAll(emulator.production, '/meters/')).find((m) => m.name === 'API requests').filter.clauses[0].value).toBe('api.call')
    edit('          value: api.request\n', '          value: api.call\n')
    expect((await planJson('prod')).code).toBe(0)
  })

  it('refuses a file with problems before any request, naming each line (exit 2)', async () => {
    const bad = join(box.root, 'bad.yaml')
    writeFileSync(
      bad,
      'version: 1\nproducts:\n  cheap:\n    name: Cheap\n    prices:\n      - {type: fixed, amount: "1.999", currency: usd}\n    benefits: [nope]\n',
    )
    for (const command of ['validate', 'plan', 'apply']) {
      const r = await till(['catalog', command, bad, ...(command === 'validate' ? [] : ['-p', 'prod']), ...(command === 'apply' ? ['--yes'] : [])])
      expect(r.code).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr).toBe(
        `Error: the catalog file has 2 problems:\n${bad}:6: products.cheap.prices[0].amount: amount 1.999 has more decimals than USD allows (2)\n${bad}:7: products.cheap.benefits[0]: no benefits entry has the key "nope"\n`,
      )
    }
    const missing = await till(['catalog', 'plan', join(box.root, 'none.yaml'), '-p', 'prod'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/^Error: cannot read the catalog file .*none\.yaml: no such file$/m)
  })

  it('refuses the whole file when one change cannot be made in place, changing nothing', async () => {
    const before = await products(emulator.production)
    edit('  starter-plan:\n    name: Starter Plan\n', '  starter-plan:\n    name: Starter Plan (new)\n')
    const text = readFileSync(file, 'utf8')
    const at = text.indexOf('  team-plan:\n')
    writeFileSync(file, text.slice(0, at) + text.slice(at).replace('recurring_interval: month', 'recurring_interval: null'))
    const r = await till(['catalog', 'apply', file, '-p', 'prod', '--yes'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('cannot apply: a recurring product cannot become one-time in the service')
    expect(r.stderr).toContain('Error: a change in the file cannot be made by the service; nothing was changed')
    expect(r.stdout).toBe('')
    expect(await products(emulator.production)).toEqual(before)
  })

  it('warns on pull when the file cannot express the environment as it is (a link to an archived product)', async () => {
    const starter = (await products(emulator.sandbox)).find((p) => p.name === 'Starter Plan')
    expect((await api(emulator.sandbox, 'PATCH', `/products/${starter.id}`, {body: {is_archived: true}})).status).toBe(200)
    const r = await till(['catalog', 'pull', '-p', 'sb'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).not.toContain('  starter-plan:\n')
    expect(r.stderr).toMatch(
      /^Warning: line \d+: checkout_links\.starter-plan-link\.products\[0\]: no products entry has the key "starter-plan" \(fix it in the file before applying it\)$/m,
    )
  })
})
