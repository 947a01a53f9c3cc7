// `till catalog pull|validate|plan|apply` as processes against one emulator, between its two isolated
// environments (profile "sb" on the sandbox, "prod" on production, emptied first as a new organization):
// the sandbox catalog recreated in production, edits planned and applied exactly, an object removed from
// the file kept unless --prune, a refusal injected halfway and a re-run that completes.
import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {expectNoToken, KEY, linesOf, runAnswering, runCli, sandbox, sh, TILL, type CliResult, type Sandbox} from '../helpers/cli.js'
import {api, listAll, startEmulator, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'

describe('catalog as code between sandbox and production', () => {
  let emulator: Emulator
  let box: Sandbox
  let file: string
  const outputs: string[] = []

  const till = async (args: string[], input?: string): Promise<CliResult> => {
    const r = await runCli(args, {env: box.env(), input})
    outputs.push(r.stdout, r.stderr)
    return r
  }
  const control = async (env: EnvHandle, path: string, body: unknown = {}) => {
    const res = await api(env, 'POST', `${env.url.replace(/\/v1$/, '')}/_emulator${path}`, {body})
    expect(res.status, res.text).toBe(200)
    return res.body
  }
  const products = (env: EnvHandle, query = ''): Promise<Json[]> => listAll(env, '/products/', query)
  const edit = (from: string, to: string) => {
    const text = readFileSync(file, 'utf8')
    expect(text.split(from)).toHaveLength(2)
    writeFileSync(file, text.replace(from, to))
  }
  const planJson = async (profile: string, ...extra: string[]) => {
    const r = await till(['catalog', 'plan', file, '-p', profile, '--json', ...extra])
    return {code: r.code, stderr: r.stderr, plan: JSON.parse(r.stdout)}
  }

  beforeAll(async () => {
    emulator = await startEmulator()
    box = sandbox()
    file = join(box.root, 'catalog.yaml')
    for (const [name, env] of [['sb', emulator.sandbox], ['prod', emulator.production]] as const) {
      const r = await runCli(['auth', 'login', '--environment', env.name, '--url', env.url, '--name', name, '--token-stdin'], {env: box.env(), input: `${env.token}\n`})
      expect(r.code, r.stderr).toBe(0)
    }
    await control(emulator.production, '/empty')
    // The file does not carry what belongs to one environment (a downloadable's files, a meter credit's
    // meter, a metered price's meter) nor seat-based prices yet: the sandbox catalog is the rest.
    for (const b of await listAll(emulator.sandbox, '/benefits/')) {
      if (b.type === 'downloadables' || b.type === 'meter_credit') expect((await api(emulator.sandbox, 'DELETE', `/benefits/${b.id}`)).status).toBe(204)
    }
    for (const p of await products(emulator.sandbox)) {
      if (p.prices.some((x: Json) => x.amount_type === 'seat_based' || x.amount_type === 'metered_unit')) {
        expect((await api(emulator.sandbox, 'PATCH', `/products/${p.id}`, {body: {is_archived: true}})).status).toBe(200)
      }
    }
  })
  afterAll(async () => {
    for (const text of outputs) {
      expectNoToken(text, emulator.production.token)
      expectNoToken(text, emulator.sandbox.token)
    }
    box?.cleanup()
    await emulator?.stop()
  })

  it('pulls the sandbox catalog into one file named by keys, without ids, and the file validates', async () => {
    const r = await till(['catalog', 'pull', '-p', 'sb', '--out', file])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain(`Wrote 5 benefits, 11 products, 3 checkout links from profile sb (sandbox) to ${file}.`)
    const text = readFileSync(file, 'utf8')
    expect(text).toMatch(/^version: 1$/m)
    expect(text).toContain('  pro-plan:\n    name: Pro Plan\n')
    expect(text).toContain('        amount: "29.00"\n        currency: usd\n')
    expect(text).not.toContain('legacy-plan') // archived: not part of the catalog
    for (const p of await products(emulator.sandbox)) expect(text).not.toContain(p.id)
    const v = await till(['catalog', 'validate', file])
    expect(v.code, v.stderr).toBe(0)
    expect(v.stderr).toContain('is a valid catalog: 5 benefits, 11 products, 3 checkout links.')
    // the same file on stdout
    const out = await till(['catalog', 'pull', '-p', 'sb'])
    expect(out.stdout).toBe(text)
  })

  it('plans every create against the empty production (exit 10), writing nothing', async () => {
    const r = await till(['catalog', 'plan', file, '-p', 'prod'])
    expect(r.code, r.stderr).toBe(10)
    expect(r.stdout).toContain(`Plan for PRODUCTION (profile prod, ${emulator.production.url}): 19 to create, 0 to update, 0 to archive.`)
    expect(r.stdout).toContain('+ benefit priority-support\n    type: custom\n')
    expect(r.stdout).toMatch(/\+ product pro-plan\n {4}name: "Pro Plan"\n {4}billing: every 1 month\n {4}prices: 29\.00 USD\n {4}benefits: discord-community, license-key, priority-support\n/)
    const {code, plan} = await planJson('prod')
    expect(code).toBe(10)
    expect(plan.counts).toEqual({create: 19, update: 0, archive: 0, extra: 0})
    expect(plan.steps.slice(-3).map((s: Json) => `${s.action} ${s.key}`)).toEqual(['create pro-plan-link', 'create pro-plan-yearly-link', 'create starter-plan-link'])
    expect(plan.target).toEqual({profile: 'prod', environment: 'production', base_url: emulator.production.url})
    expect(plan.steps.slice(0, 5).every((s: Json) => s.kind === 'benefits' && s.action === 'create')).toBe(true)
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
    expect(lines).toHaveLength(19)
    expect(lines[0]).toMatch(/^created benefit beta-features \([0-9a-f-]{36}\)$/)
    expect(lines.filter((l) => l.startsWith('created product '))).toHaveLength(11)
    expect(r.stderr).toContain('Applied to PRODUCTION')

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
  })

  it('plans exactly a changed price and a changed benefit, and apply converges (the old price archived)', async () => {
    edit('        amount: "29.00"\n', '        amount: "35.50"\n')
    edit('note: Write to support@example.com with your order number.', 'note: Write to help@example.com.')
    const {code, plan} = await planJson('prod')
    expect(code).toBe(10)
    expect(plan.counts).toEqual({create: 0, update: 2, archive: 0, extra: 0})
    expect(plan.steps.map((s: Json) => [s.kind, s.key, s.changes.map((c: Json) => `${c.field}: ${c.from} -> ${c.to}`)])).toEqual([
      ['benefits', 'priority-support', ['properties.note: "Write to support@example.com with your order number." -> "Write to help@example.com."']],
      ['products', 'pro-plan', ['prices: 29.00 USD -> 35.50 USD']],
    ])
    const text = await till(['catalog', 'plan', file, '-p', 'prod'])
    expect(text.stdout).toContain('    prices: 29.00 USD -> 35.50 USD\n      (the service does not edit a price: a new price is created and the old one archived')

    const r = await till(['catalog', 'apply', file, '-p', 'prod', '--yes'])
    expect(r.code, r.stderr).toBe(0)
    expect(linesOf(r.stdout).map((l) => l.replace(/ \(.*\)$/, ''))).toEqual(['updated benefit priority-support', 'updated product pro-plan'])
    const pro = (await products(emulator.production)).find((p) => p.name === 'Pro Plan')
    expect(pro.prices.map((p: Json) => [p.price_amount, p.is_archived])).toEqual([[2900, true], [3550, false]])
    expect((await planJson('prod')).code).toBe(0)
  })

  it('reports an object removed from the file and archives it only with --prune', async () => {
    const text = readFileSync(file, 'utf8')
    const start = text.indexOf('  icon-pack:\n')
    const end = text.indexOf('\n  lifetime-license:\n')
    writeFileSync(file, text.slice(0, start) + text.slice(end + 1))

    const kept = await till(['catalog', 'plan', file, '-p', 'prod'])
    expect(kept.code, kept.stderr).toBe(0)
    expect(kept.stdout).toContain('0 to create, 0 to update, 0 to archive, 1 not in the file (kept).')
    expect(kept.stdout).toContain('! product icon-pack: not in the file: kept (--prune archives it)')
    const applied = await till(['catalog', 'apply', file, '-p', 'prod', '--yes'])
    expect(applied.code).toBe(0)
    expect((await products(emulator.production)).find((p) => p.name === 'Icon Pack').is_archived).toBe(false)

    const pruning = await planJson('prod', '--prune')
    expect(pruning.code).toBe(10)
    expect(pruning.plan.steps.map((s: Json) => `${s.action} ${s.key}`)).toEqual(['archive icon-pack'])
    const pruned = await till(['catalog', 'apply', file, '-p', 'prod', '--prune', '--yes', '--json'])
    expect(pruned.code, pruned.stderr).toBe(0)
    const icon = (await products(emulator.production)).find((p) => p.name === 'Icon Pack')
    expect(JSON.parse(pruned.stdout)).toEqual({done: [{kind: 'products', noun: 'product', key: 'icon-pack', action: 'archive', id: icon.id}], failed: null, not_done: []})
    expect((await products(emulator.production)).find((p) => p.name === 'Icon Pack').is_archived).toBe(true)
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
    expect(no.stdout).toContain('Error: cancelled; nothing was changed')
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
    expect(done.map((l) => l.replace(/ \(.*\)$/, '')).slice(-3)).toEqual(['created product consulting-hour', 'created product e-book-shipping-software', 'created product free-tier'])
    expect(linesOf(r.stdout).filter((l) => l.startsWith('not done: '))).toEqual([
      'not done: create product pay-what-you-want-donation',
      'not done: create product pro-plan',
      'not done: create product pro-plan-yearly',
      'not done: create product sample-pack',
      'not done: create product starter-plan',
      'not done: create product team-plan',
      'not done: create checkout link pro-plan-link',
      'not done: create checkout link pro-plan-yearly-link',
      'not done: create checkout link starter-plan-link',
    ])
    expect(r.stderr).toContain('Error: apply stopped at create product lifetime-license: the API rejected the input\n  body.name: The product was refused')
    expect(r.stderr).toContain(`${done.length} of ${done.length + 10} changes were made; 10 were not`)
    expect(r.stderr).toContain('Hint: fix the cause and run the same apply again')
    expect(await products(emulator.production)).toHaveLength(done.length - 5)

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
      'created checkout link pro-plan-link',
      'created checkout link pro-plan-yearly-link',
      'created checkout link starter-plan-link',
    ])
    expect((await planJson('prod')).code).toBe(0)
    expect((await till(['catalog', 'pull', '-p', 'prod'])).stdout).toBe(readFileSync(file, 'utf8'))
  })

  it('refuses a file with problems before any request, naming each line (exit 2)', async () => {
    const bad = join(box.root, 'bad.yaml')
    writeFileSync(bad, 'version: 1\nproducts:\n  cheap:\n    name: Cheap\n    prices:\n      - {type: fixed, amount: "1.999", currency: usd}\n    benefits: [nope]\n')
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
    expect(r.stderr).toMatch(/^Warning: line \d+: checkout_links\.starter-plan-link\.products\[0\]: no products entry has the key "starter-plan" \(fix it in the file before applying it\)$/m)
  })
})
