// Customer seats and seat-based pricing: `till products create --seat-tiers`, `till seats ...`,
// `till subscriptions update --seats` (and --units), `till portal seats ...` and `till emulator seat-invitation`, in the
// test process against the emulator, every request and answer checked against the document (contract mode).
// The seeded seat-based subscription (the team customer's, 5 seats, one claimed) is the one worked on.
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {envVars, linesOf, sandbox, type CliResult, type Sandbox} from '../helpers/cli.js'
import {allowRefusals} from '../helpers/contract.js'
import {api, control, listAll, sleep, startEmulator, unknownId, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'
import {scaled, waitUntil} from '../helpers/machine.js'

/** A webhook receiver: the events the emulator posts, by type. */
async function startReceiver(): Promise<{url: string; events: Array<{type: string; data: Json}>; close(): Promise<void>}> {
  const events: Array<{type: string; data: Json}> = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      events.push(JSON.parse(Buffer.concat(chunks).toString('utf8')))
      res.end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  return {url: `http://127.0.0.1:${port}/hook`, events, close: () => new Promise((resolve) => server.close(() => resolve()))}
}

const json = (r: CliResult): Json => {
  expect(r.code, r.stderr).toBe(0)
  return JSON.parse(r.stdout)
}

describe('seats', {timeout: scaled(120_000)}, () => {
  let emulator: Emulator
  let env: EnvHandle
  let box: Sandbox
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  /** The seeded seat-based subscription and its team customer. */
  let subscription: Json
  let team: Json

  const till = (args: string[], extra: Record<string, string> = {}, handle?: EnvHandle) =>
    runInProcess(args, {env: box.env({...envVars(handle ?? env), ...extra})})
  const seatsOf = async (id: string, handle?: EnvHandle) => json(await till(['seats', 'list', '--subscription', id, '--json'], {}, handle))
  /** The events of `type` received so far, waiting a little for deliveries in flight. */
  const received = async (type: string, count: number) => {
    await waitUntil(() => receiver.events.filter((e) => e.type === type).length >= count, 5000)
    return receiver.events.filter((e) => e.type === type)
  }

  beforeAll(async () => {
    emulator = await startEmulator()
    env = emulator.production
    box = sandbox()
    receiver = await startReceiver()
    const endpoint = await api(env, 'POST', '/webhooks/endpoints', {
      body: {
        url: receiver.url,
        format: 'raw',
        events: ['customer_seat.assigned', 'customer_seat.claimed', 'customer_seat.revoked', 'subscription.updated', 'benefit_grant.created'],
      },
    })
    expect(endpoint.status, endpoint.text).toBe(201)
    const subscriptions = await listAll(env, '/subscriptions/')
    subscription = subscriptions.find((s: Json) => s.seats !== null)
    team = subscription.customer
  })
  afterAll(async () => {
    await receiver?.close()
    await emulator?.stop()
    box?.cleanup()
  })

  it('the seed has a seat-based product and a subscription with 5 seats, one claimed', async () => {
    expect(subscription).toMatchObject({seats: 5, amount: 5000, status: 'active', product: {name: 'Team Seats'}})
    expect(team).toMatchObject({type: 'team', external_id: 'team_00001'})
    const list = await seatsOf(subscription.id)
    expect(list).toMatchObject({total_seats: 5, available_seats: 4})
    expect(list.seats.map((s: Json) => s.status)).toEqual(['claimed'])
    const table = await till(['seats', 'list', '--subscription', subscription.id, '-o', 'tsv', '--columns', 'status,email'])
    expect(table.code, table.stderr).toBe(0)
    expect(linesOf(table.stdout)).toEqual([`claimed\t${list.seats[0].email}`])
    expect(table.stderr).toContain('1 of 5 seats assigned, 4 available.')
    const shown = await till(['subscriptions', 'get', subscription.id])
    expect(shown.stdout).toMatch(/Seats\s+5/)
    const product = await till(['products', 'get', subscription.product_id, '-o', 'table'])
    expect(product.stdout).toContain('per seat: $10.00 a seat (1-5 seats), $8.00 a seat (6+ seats)')
  })

  it('products create --seat-tiers makes a seat-based price; the service refuses tiers with a gap', async () => {
    const created = json(
      await till([
        'products',
        'create',
        '--name',
        'Studio Seats',
        '--interval',
        'month',
        '--seat-tiers',
        '1-3:12.00,4+:9.50',
        '--seat-tier-type',
        'graduated',
        '--json',
      ]),
    )
    expect(created.prices).toHaveLength(1)
    expect(created.prices[0]).toMatchObject({
      amount_type: 'seat_based',
      seat_tiers: {
        seat_tier_type: 'graduated',
        minimum_seats: 1,
        maximum_seats: null,
        tiers: [
          {min_seats: 1, max_seats: 3, price_per_seat: 1200},
          {min_seats: 4, max_seats: null, price_per_seat: 950},
        ],
      },
    })
    // products update --seat-tiers replaces the seat-based price (the old one archived), keeping the currency
    const updated = json(await till(['products', 'update', created.id, '--seat-tiers', '1-10:11.00,11+:8.00', '--json']))
    const live = updated.prices.filter((p: Json) => !p.is_archived)
    expect(live).toHaveLength(1)
    expect(live[0]).toMatchObject({
      amount_type: 'seat_based',
      price_currency: created.prices[0].price_currency,
      seat_tiers: {
        seat_tier_type: 'volume',
        tiers: [
          {min_seats: 1, max_seats: 10, price_per_seat: 1100},
          {min_seats: 11, max_seats: null, price_per_seat: 800},
        ],
      },
    })
    allowRefusals()
    const gap = await till(['products', 'create', '--name', 'Gappy Seats', '--interval', 'month', '--seat-tiers', '1-3:12.00,5+:9.50'])
    expect(gap.code).toBe(2)
    expect(gap.stderr.split('\n')[0]).toBe('Error: the API rejected the input')
    expect(gap.stderr).toContain('Gap or overlap between tiers: tier ending at 3 and tier starting at 5')
    const malformed = await till(['products', 'create', '--name', 'Bad Seats', '--seat-tiers', 'five:10'])
    expect(malformed.code).toBe(2)
    expect(malformed.stderr).toMatch(
      /^Error: --seat-tiers: "five:10" is not a tier MIN-MAX:PRICE or MIN\+:PRICE\nHint: e\.g\. --seat-tiers 1-5:10\.00,6\+:8\.00/,
    )
  })

  it('catalog pull leaves the seat-based products out, saying so; apply and plan --prune keep them', async () => {
    const pulled = await till(['catalog', 'pull', '--out', `${box.root}/catalog.yaml`])
    expect(pulled.code, pulled.stderr).toBe(0)
    expect(pulled.stderr).toContain('Warning: product team-seats is left out: it has a seat-based price, which the file cannot express yet (apply keeps it)')
    // applied (which records each object's key), then planned with --prune: nothing to do, the seat-based products kept
    const applied = await till(['catalog', 'apply', `${box.root}/catalog.yaml`, '--yes'])
    expect(applied.code, applied.stderr).toBe(0)
    const plan = await till(['catalog', 'plan', `${box.root}/catalog.yaml`, '--prune'])
    expect(plan.code, `${plan.stdout}${plan.stderr}`).toBe(0)
    expect(plan.stdout).toContain('team-seats')
    expect(plan.stdout).toMatch(/kept \(it has a seat-based price, which the file cannot express yet\)/)
    expect((await api(env, 'GET', `/products/${subscription.product_id}`)).body.is_archived).toBe(false)
  })

  let pending: Json
  let token: string

  it('assigns a seat to a new e-mail (a new customer), with an invitation that claim-info reads and claim spends once', async () => {
    const assigned = await till(['seats', 'assign', '--subscription', subscription.id, '--email', 'ada@seats.example', '--metadata', 'team=design', '--json'])
    pending = json(assigned)
    expect(pending).toMatchObject({status: 'pending', email: 'ada@seats.example', customer_email: 'ada@seats.example', seat_metadata: {team: 'design'}})
    expect(pending.invitation_token_expires_at).not.toBeNull()
    expect(assigned.stderr).toContain('Invitation sent to ada@seats.example')
    const customer = (await api(env, 'GET', `/customers/${pending.customer_id}`)).body
    expect(customer).toMatchObject({email: 'ada@seats.example', type: 'individual'})
    expect((await received('customer_seat.assigned', 1)).map((e) => e.data.id)).toEqual([pending.id])

    // again: the person holds a seat already
    allowRefusals()
    const twice = await till(['seats', 'assign', '--subscription', subscription.id, '--email', 'ada@seats.example'])
    expect(twice.code).toBe(1)
    expect(twice.stderr.split('\n')[0]).toBe('Error: seat already assigned to customer ada@seats.example; one person holds one seat of a subscription')

    const resent = await till(['seats', 'resend', pending.id, '--json'])
    expect(json(resent)).toMatchObject({id: pending.id, status: 'pending'})
    expect(resent.stderr).toContain('Invitation sent again to ada@seats.example')

    const invitation = await till(['emulator', 'seat-invitation', pending.id], {TILL_ENV: 'local'})
    expect(invitation.code, invitation.stderr).toBe(0)
    token = invitation.stdout.trim()
    expect(token.length).toBeGreaterThan(30)
    const info = json(await till(['seats', 'claim-info', token, '--json']))
    expect(info).toEqual({
      product_name: 'Team Seats',
      product_id: subscription.product_id,
      organization_name: 'Acme Software',
      organization_slug: 'acme',
      customer_email: 'ada@seats.example',
      can_claim: true,
    })

    const claimed = json(await till(['seats', 'claim', token, '--json']))
    expect(claimed.seat).toMatchObject({id: pending.id, status: 'claimed', customer_id: pending.customer_id})
    expect(claimed.seat.claimed_at).not.toBeNull()
    expect(claimed.customer_session_token).toMatch(/^polar_cst_/)
    expect((await received('customer_seat.claimed', 1)).map((e) => e.data.id)).toEqual([pending.id])

    // the token is single-use; claimed, its seat cannot be resent
    const again = await till(['seats', 'claim', token])
    expect(again.code).toBe(1)
    expect(again.stderr.split('\n')[0]).toBe('Error: the invitation token is invalid, already used or expired')
    const gone = await till(['seats', 'claim-info', token])
    expect(gone.code).toBe(3)
    const resendClaimed = await till(['seats', 'resend', pending.id])
    expect(resendClaimed.code).toBe(1)
    expect(resendClaimed.stderr.split('\n')[0]).toBe(`Error: seat ${pending.id} is not pending (it is claimed or revoked), so it has no invitation to send`)

    // the holder's session sees the subscription among those where it holds a seat
    const mine = await till(['portal', 'seats', 'subscriptions', '-o', 'jsonl'], {TILL_CUSTOMER_TOKEN: claimed.customer_session_token})
    expect(mine.code, mine.stderr).toBe(0)
    expect(linesOf(mine.stdout).map((l) => JSON.parse(l).id)).toEqual([subscription.id])
  })

  it("takes an invitation token that begins with '-' (one in 64 does) as the token, not as a flag", async () => {
    // unknown tokens: the service's answer (not found, exit 3) shows each was sent as the token
    for (const args of [
      ['seats', 'claim-info', '-O5EeSK3mNKfdeYR179GtuFKj32LCQBtoqCVUcoxqwk', '--json'],
      ['seats', 'claim-info', '-o', 'json', '-oX7dY0s7kLmN4pQrStUvWxYz1a2B3c4D5e6F7g8'],
      ['seats', 'claim-info', '--', '-O5EeSK3mNKfdeYR179GtuFKj32LCQBtoqCVUcoxqwk'],
    ]) {
      const r = await till(args)
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(3)
    }
    const claim = await till(['seats', 'claim', '--O5EeSK3mNKfdeYR179GtuFKj32LCQBtoqCVUcoxqwk'])
    expect(claim.code, claim.stderr).toBe(1)
    expect(claim.stderr.split('\n')[0]).toBe('Error: the invitation token is invalid, already used or expired')
    // a flag that is not one is still refused as before
    expect((await till(['seats', 'claim-info', 'token', '--no-such-flag'])).code).toBe(2)
  })

  it('never echoes an invitation token: not in a not-found error, a refused word, or --debug', async () => {
    const dashed = '-Xq5EeSK3mNKfdeYR179GtuFKj32LCQBtoqCVUcoxqwk'
    const plain = 'Xq5EeSK3mNKfdeYR179GtuFKj32LCQBtoqCVUcoxqwk'
    const secret = 'Xq5EeSK3mNKfdeYR179Gtu'
    allowRefusals()
    for (const [args, code] of [
      [['seats', 'claim-info', plain, '--debug'], 3],
      [['seats', 'claim-info', '--', dashed], 3],
      [['seats', 'claim-info', dashed, '--json'], 3],
      [['seats', 'claim', plain, '--debug'], 1],
      // two tokens, or a piece of one (too short to be told from a flag): refused without showing them
      [['seats', 'claim', dashed, dashed], 2],
      [['seats', 'claim', plain, dashed], 2],
      [['seats', 'claim', '-Xq5EeSK3'], 2],
      [['seats', 'claim-info', '--json', '-Xq5EeSK3mNKfdeYR1'], 2],
    ] as Array<[string[], number]>) {
      const r = await till(args)
      const shown = args.join(' ')
      expect(r.code, `${shown}: ${r.stderr}`).toBe(code)
      expect(r.stderr, shown).not.toContain('Xq5EeSK3')
      expect(r.stdout, shown).not.toContain(secret)
    }
    const missing = await till(['seats', 'claim-info', plain])
    expect(missing.stderr).toBe(
      'Error: not found: no pending invitation has this token (it is invalid, already used or expired)\nHint: a pending seat gets its invitation again with: till seats resend SEAT\n',
    )
    const twice = await till(['seats', 'claim', dashed, dashed])
    expect(twice.stderr).toBe(
      "Error: Unexpected argument (not shown)\nHint: give one token; one that begins with '-' goes after --, e.g. till seats claim -- TOKEN\n",
    )
  })

  it('counts seats against the subscription: full, it refuses another; revoking (confirmed) frees one', async () => {
    const customers = await listAll(env, '/customers/')
    const others = customers.filter((c: Json) => c.type === 'individual' && ![pending.customer_id].includes(c.id))
    const holders = new Set((await seatsOf(subscription.id)).seats.map((s: Json) => s.customer_id))
    const free = others.filter((c: Json) => !holders.has(c.id))
    // 2 of 5 taken: three more, the first claimed at once
    const immediate = json(await till(['seats', 'assign', '--subscription', subscription.id, '--customer', free[0].id, '--immediate-claim', '--json']))
    expect(immediate).toMatchObject({status: 'claimed', customer_id: free[0].id, invitation_token_expires_at: null})
    for (const c of free.slice(1, 3)) {
      expect((await till(['seats', 'assign', '--subscription', subscription.id, '--customer', c.id])).code).toBe(0)
    }
    expect(await seatsOf(subscription.id)).toMatchObject({total_seats: 5, available_seats: 0})
    allowRefusals()
    const full = await till(['seats', 'assign', '--subscription', subscription.id, '--email', 'late@seats.example'])
    expect(full.code).toBe(1)
    expect(full.stderr.split('\n')[0]).toBe(`Error: no seat is available: every seat of ${subscription.id} is assigned`)

    const unconfirmed = await till(['seats', 'revoke', immediate.id])
    expect(unconfirmed.code).toBe(2)
    expect(unconfirmed.stderr).toMatch(/--yes/)
    const revoked = json(await till(['seats', 'revoke', immediate.id, '--yes', '--json']))
    expect(revoked).toMatchObject({id: immediate.id, status: 'revoked', customer_id: null, email: null})
    expect((await received('customer_seat.revoked', 1)).map((e) => e.data.id)).toEqual([immediate.id])
    expect(await seatsOf(subscription.id)).toMatchObject({available_seats: 1})
    // revoking again changes nothing
    expect(json(await till(['seats', 'revoke', immediate.id, '--yes', '--json']))).toMatchObject({status: 'revoked'})
    await sleep(200)
    expect(receiver.events.filter((e) => e.type === 'customer_seat.revoked')).toHaveLength(1)
    // the freed seat is given out again
    const reused = json(await till(['seats', 'assign', '--subscription', subscription.id, '--email', 'late@seats.example', '--json']))
    expect(reused).toMatchObject({id: immediate.id, status: 'pending', email: 'late@seats.example'})

    const unknown = await till(['seats', 'revoke', unknownId(), '--yes'])
    expect(unknown.code).toBe(3)
    const neither = await till(['seats', 'list'])
    expect(neither.code).toBe(2)
    expect(neither.stderr).toMatch(/^Error: seats belong to a subscription or an order: give --subscription or --order/)
  })

  it('subscriptions update --seats: within the tiers, never below the seats assigned; subscription.seats_updated', async () => {
    allowRefusals()
    const below = await till(['subscriptions', 'update', subscription.id, '--seats', '3', '--yes'])
    expect(below.code).toBe(1)
    expect(below.stderr.split('\n')[0]).toBe(`Error: subscription ${subscription.id}: cannot decrease seats to 3. Currently 5 seats are assigned.`)
    const reset = await till(['subscriptions', 'update', subscription.id, '--seats', '8', '--proration', 'reset', '--yes'])
    expect(reset.code).toBe(2)
    expect(reset.stderr).toContain("The 'reset' proration behavior is not enabled for this organization.")

    const unconfirmed = await till(['subscriptions', 'update', subscription.id, '--seats', '8'])
    expect(unconfirmed.code).toBe(2)
    expect(unconfirmed.stderr).toMatch(/--yes/)
    const updatesBefore = (await received('subscription.updated', 0)).length
    const grown = json(await till(['subscriptions', 'update', subscription.id, '--seats', '8', '--proration', 'invoice', '--yes', '--json']))
    // volume tiers: 8 seats at the 6+ tier's $8.00
    expect(grown).toMatchObject({id: subscription.id, seats: 8, amount: 6400})
    expect(await seatsOf(subscription.id)).toMatchObject({total_seats: 8, available_seats: 3})
    const updated = await received('subscription.updated', updatesBefore + 1)
    expect(updated.at(-1)!.data).toMatchObject({id: subscription.id, seats: 8})
    const events = await till(['events', 'list', '--name', 'subscription.seats_updated', '--customer', team.id, '-o', 'jsonl'])
    expect(events.code, events.stderr).toBe(0)
    expect(linesOf(events.stdout).map((l) => JSON.parse(l).metadata)).toEqual([
      {subscription_id: subscription.id, old_seats: 5, new_seats: 8, proration_behavior: 'invoice'},
    ])
    // invoice: the difference for the rest of the period is an order now
    const orders = await listAll(env, '/orders/', `subscription_id=${subscription.id}`)
    expect(orders.some((o: Json) => o.billing_reason === 'subscription_update')).toBe(true)

    // next_period: a pending update, applied at the renewal
    const later = json(await till(['subscriptions', 'update', subscription.id, '--seats', '6', '--proration', 'next_period', '--yes', '--json']))
    expect(later).toMatchObject({seats: 8, pending_update: {seats: 6, product_id: null}})
    const renewed = await control(env, 'POST', `subscriptions/${subscription.id}/renew`)
    expect(renewed.status, renewed.text).toBe(200)
    const after = (await api(env, 'GET', `/subscriptions/${subscription.id}`)).body
    expect(after).toMatchObject({seats: 6, amount: 4800, pending_update: null})

    // the same count again is no change: no webhook
    const count = (await received('subscription.updated', 0)).length
    expect(json(await till(['subscriptions', 'update', subscription.id, '--seats', '6', '--yes', '--json']))).toMatchObject({seats: 6})
    await sleep(200)
    expect(receiver.events.filter((e) => e.type === 'subscription.updated')).toHaveLength(count)

    const plain = (await listAll(env, '/subscriptions/', 'active=true')).find((s: Json) => s.seats === null && !s.cancel_at_period_end)
    const notSeats = await till(['subscriptions', 'update', plain.id, '--seats', '2', '--yes'])
    expect(notSeats.code).toBe(1)
    expect(notSeats.stderr.split('\n')[0]).toBe(`Error: subscription ${plain.id} is not seat-based, so it has no seats to change`)
    const mixed = await till(['subscriptions', 'update', subscription.id, '--seats', '2', '--product', subscription.product_id, '--yes'])
    expect(mixed.code).toBe(2)
  })

  it('subscriptions update --units sends a units change; a subscription without a unit price is refused in words', async () => {
    allowRefusals()
    const plain = (await listAll(env, '/subscriptions/', 'active=true')).find((s: Json) => s.seats === null && !s.cancel_at_period_end)
    const refused = await till(['subscriptions', 'update', plain.id, '--units', '3', '--proration', 'invoice', '--yes'])
    expect(refused.code, refused.stderr).toBe(1)
    expect(refused.stderr.split('\n')[0]).toBe(`Error: subscription ${plain.id} is not unit-based, so it has no units to change`)
    // the service's own answer, and its checks before it
    const direct = await api(env, 'PATCH', `/subscriptions/${plain.id}`, {body: {units: 3}})
    expect([direct.status, direct.body.error]).toEqual([400, 'NotAUnitBasedSubscription'])
    const zero = await api(env, 'PATCH', `/subscriptions/${plain.id}`, {body: {units: 0}})
    expect([zero.status, zero.body.detail[0].loc]).toEqual([422, ['body', 'units']])
    const reset = await api(env, 'PATCH', `/subscriptions/${plain.id}`, {body: {units: 3, proration_behavior: 'reset'}})
    expect([reset.status, reset.body.detail[0].loc]).toEqual([422, ['body', 'proration_behavior']])
    const both = await till(['subscriptions', 'update', plain.id, '--units', '3', '--seats', '2', '--yes'])
    expect(both.code).toBe(2)
    const mixed = await till(['subscriptions', 'update', plain.id, '--units', '3', '--product', plain.product_id, '--yes'])
    expect(mixed.code).toBe(2)
    expect(mixed.stderr).toContain('--units cannot be combined with --product')
  })

  it("the portal: the team's billing manager changes its subscription's seats (confirmed); another customer's is not found", async () => {
    const session = await api(env, 'POST', '/customer-sessions/', {body: {customer_id: team.id, external_member_id: 'initech_joanna'}})
    const asTeam = {TILL_CUSTOMER_TOKEN: session.body.token as string}
    const before = (await api(env, 'GET', `/subscriptions/${subscription.id}`)).body.seats as number
    const unconfirmed = await till(['portal', 'subscriptions', 'update', subscription.id, '--seats', String(before + 1)], asTeam)
    expect(unconfirmed.code).toBe(2)
    expect(unconfirmed.stderr).toContain('--yes')
    const changed = json(await till(['portal', 'subscriptions', 'update', subscription.id, '--seats', String(before + 1), '--yes', '--json'], asTeam))
    expect(changed).toMatchObject({id: subscription.id, seats: before + 1})
    expect((await api(env, 'GET', `/subscriptions/${subscription.id}`)).body.seats).toBe(before + 1)
    allowRefusals()
    const other = (await listAll(env, '/customers/')).find((c: Json) => c.type === 'individual')
    const otherSession = await api(env, 'POST', '/customer-sessions/', {body: {customer_id: other.id}})
    const notMine = await till(['portal', 'subscriptions', 'update', subscription.id, '--seats', '9', '--yes'], {TILL_CUSTOMER_TOKEN: otherSession.body.token})
    expect(notMine.code).toBe(3)
    expect((await api(env, 'GET', `/subscriptions/${subscription.id}`)).body.seats).toBe(before + 1)
    // and back down (never below the seats assigned)
    const back = json(await till(['portal', 'subscriptions', 'update', subscription.id, '--seats', String(before), '--yes', '--json'], asTeam))
    expect(back).toMatchObject({seats: before})
  })

  it("the portal: the team's billing manager lists, assigns, resends and revokes its seats; another customer's are not found", async () => {
    const asTeam = {TILL_CUSTOMER_TOKEN: ''}
    // a team customer's session acts as one of its members: here its billing manager
    const session = await api(env, 'POST', '/customer-sessions/', {body: {customer_id: team.id, external_member_id: 'initech_joanna'}})
    asTeam.TILL_CUSTOMER_TOKEN = session.body.token
    const list = json(await till(['portal', 'seats', 'list', '--subscription', subscription.id, '--json'], asTeam))
    expect(list).toMatchObject({total_seats: 6, available_seats: 1})
    const seat = json(await till(['portal', 'seats', 'assign', '--subscription', subscription.id, '--email', 'grace@seats.example', '--json'], asTeam))
    expect(seat).toMatchObject({status: 'pending', email: 'grace@seats.example', subscription_id: subscription.id})
    expect(json(await till(['portal', 'seats', 'resend', seat.id, '--json'], asTeam))).toMatchObject({id: seat.id, status: 'pending'})
    const unconfirmed = await till(['portal', 'seats', 'revoke', seat.id], asTeam)
    expect(unconfirmed.code).toBe(2)
    expect(json(await till(['portal', 'seats', 'revoke', seat.id, '--yes', '--json'], asTeam))).toMatchObject({id: seat.id, status: 'revoked'})
    // with --as-customer (the team's external id), as the other portal commands
    const byExternal = await till([
      'portal',
      'seats',
      'list',
      '--subscription',
      subscription.id,
      '--as-customer',
      'team_00001',
      '--as-member-external-id',
      'initech_joanna',
      '-o',
      'tsv',
      '--columns',
      'id',
    ])
    expect(byExternal.code, byExternal.stderr).toBe(0)
    expect(linesOf(byExternal.stdout)).toContain(seat.id)

    allowRefusals()
    const other = (await listAll(env, '/customers/')).find((c: Json) => c.type === 'individual')
    const otherSession = await api(env, 'POST', '/customer-sessions/', {body: {customer_id: other.id}})
    const notMine = await till(['portal', 'seats', 'list', '--subscription', subscription.id], {TILL_CUSTOMER_TOKEN: otherSession.body.token})
    expect(notMine.code).toBe(3)
    const notMineRevoke = await till(['portal', 'seats', 'revoke', seat.id, '--yes'], {TILL_CUSTOMER_TOKEN: otherSession.body.token})
    expect(notMineRevoke.code).toBe(3)
  })

  it('a checkout of a seat-based product sells its minimum seats: the subscription has them to assign', async () => {
    const product = json(await till(['products', 'create', '--name', 'Duo Seats', '--interval', 'month', '--seat-tiers', '2-10:7.00', '--json']))
    const k = json(await till(['checkouts', 'create', '--product', product.id, '--json']))
    expect(k).toMatchObject({amount: 1400, seats: 2, min_seats: 2, max_seats: 10})
    const confirm = await api(env, 'POST', `/checkouts/client/${k.client_secret}/confirm`, {
      token: null,
      body: {customer_email: 'duo@seats.example', customer_name: 'Duo', customer_billing_address: {country: 'US'}},
    })
    expect(confirm.status, confirm.text).toBe(200)
    const bought = (await listAll(env, '/subscriptions/', `customer_id=${confirm.body.customer_id}`))[0]
    expect(bought).toMatchObject({seats: 2, amount: 1400, product_id: product.id})
    expect(await seatsOf(bought.id)).toMatchObject({total_seats: 2, available_seats: 2, seats: []})
    // the buyer gives a seat in the portal, naming the checkout rather than the subscription
    const byCheckout = json(
      await till(['portal', 'seats', 'assign', '--checkout', k.id, '--email', 'mate@seats.example', '--json', '--as-customer-id', confirm.body.customer_id]),
    )
    expect(byCheckout).toMatchObject({subscription_id: bought.id, status: 'pending', email: 'mate@seats.example'})
    // below the price's lowest tier, above its highest
    allowRefusals()
    const one = await till(['subscriptions', 'update', bought.id, '--seats', '1', '--yes'])
    expect(one.stderr.split('\n')[0]).toBe(`Error: subscription ${bought.id}: minimum 2 seats required (the lowest tier of its price)`)
    const many = await till(['subscriptions', 'update', bought.id, '--seats', '11', '--yes'])
    expect(many.stderr.split('\n')[0]).toBe(`Error: subscription ${bought.id}: maximum 10 seats allowed (the highest tier of its price)`)
  })

  it('revoking the subscription revokes every seat it still has', async () => {
    const sandboxEnv = emulator.sandbox
    const s = (await listAll(sandboxEnv, '/subscriptions/')).find((x: Json) => x.seats !== null)
    expect((await seatsOf(s.id, sandboxEnv)).seats.map((x: Json) => x.status)).toEqual(['claimed'])
    const revoked = await till(['subscriptions', 'revoke', s.id, '--yes'], {}, sandboxEnv)
    expect(revoked.code, revoked.stderr).toBe(0)
    const after = await seatsOf(s.id, sandboxEnv)
    expect(after.seats.map((x: Json) => x.status)).toEqual(['revoked'])
  })
})
