// Team customers and their members: `till customers create|update --type team`, `till customers members
// list|add|get|update|remove` (by ids and by external ids), `till portal members ...` with a member session,
// the service's rules (one owner, roles, a team for more than one member, unique emails) and the `member.*`
// webhooks. Every request and answer is checked against the document (contract mode).
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {envVars, linesOf, sandbox, type CliResult, type Sandbox} from '../helpers/cli.js'
import {allowRefusals} from '../helpers/contract.js'
import {api, sleep, startEmulator, unknownId, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'
import {waitUntil} from '../helpers/machine.js'

let emulator: Emulator
let env: EnvHandle
let box: Sandbox
let receiver: Server
const events: Array<{type: string; data: Json}> = []

const till = (args: string[], input?: string) => runInProcess(args, {env: box.env(envVars(env)), input})
const json = (r: CliResult): Json => {
  expect(r.code, r.stderr).toBe(0)
  return JSON.parse(r.stdout)
}
const firstLine = (r: CliResult) => r.stderr.split('\n')[0]

/** The `member.*` events received for this member id so far, waiting a little for deliveries in flight. */
async function eventsOf(id: string, count: number): Promise<string[]> {
  const of = () => events.filter((e) => e.data?.id === id).map((e) => e.type)
  await waitUntil(() => of().length >= count, 3000, 30)
  await sleep(60)
  return of()
}

const newEmail = (who: string) => `${who}.${Math.random().toString(36).slice(2, 8)}@example.com`

beforeAll(async () => {
  emulator = await startEmulator()
  env = emulator.production
  box = sandbox()
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      events.push(JSON.parse(Buffer.concat(chunks).toString('utf8')))
      res.end('ok')
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
  const types = ['member.created', 'member.updated', 'member.deleted', 'customer.created', 'customer.updated']
  const endpoint = await api(env, 'POST', '/webhooks/endpoints', {body: {url, format: 'raw', events: types}})
  expect(endpoint.status, endpoint.text).toBe(201)
})
afterAll(async () => {
  await emulator?.stop()
  box?.cleanup()
  await new Promise((resolve) => receiver?.close(resolve))
})

describe('the seeded team customer', () => {
  it('has an owner, a billing manager and a member, listed by external id; customers list shows its type', async () => {
    const members = json(await till(['customers', 'members', 'list', '--external-id', 'team_00001', '--json']))
    expect(members.map((m: Json) => [m.email, m.role]).sort()).toEqual([
      ['billing@initech.example', 'owner'],
      ['joanna@initech.example', 'billing_manager'],
      ['peter@initech.example', 'member'],
    ])
    const managers = await till([
      'customers',
      'members',
      'list',
      '-e',
      'team_00001',
      '--role',
      'billing_manager',
      '-o',
      'tsv',
      '--columns',
      'email,role,external_id',
    ])
    expect(linesOf(managers.stdout)).toEqual(['joanna@initech.example\tbilling_manager\tinitech_joanna'])
    const team = json(await till(['customers', 'get', '--external-id', 'team_00001', '--json']))
    expect(team).toMatchObject({type: 'team', name: 'Initech'})
    const listed = await till(['customers', 'list', '--query', 'initech', '-o', 'tsv', '--columns', 'name,type'])
    expect(linesOf(listed.stdout)).toEqual(['Initech\tteam'])
    // every seeded individual customer has its owner, and `list` without a customer lists every customer's
    const owners = json(await till(['customers', 'members', 'list', '--role', 'owner', '--all', '--json']))
    expect(owners.length).toBeGreaterThan(2)
    expect(owners.every((m: Json) => m.role === 'owner')).toBe(true)
  })
})

describe('till customers create --type team and the members commands', () => {
  it('creates a team customer with its owner (member.created), adds, shows, changes and removes members', async () => {
    const ownerEmail = newEmail('owner')
    const team = json(
      await till([
        'customers',
        'create',
        '--type',
        'team',
        '--name',
        'Hooli',
        '--owner-email',
        ownerEmail,
        '--owner-name',
        'Gavin',
        '--external-id',
        'hooli',
        '--json',
      ]),
    )
    expect(team).toMatchObject({type: 'team', email: null, name: 'Hooli', external_id: 'hooli'})
    const [owner] = json(await till(['customers', 'members', 'list', team.id, '--json']))
    expect(owner).toMatchObject({customer_id: team.id, email: ownerEmail, name: 'Gavin', role: 'owner', external_id: 'hooli'})
    expect(await eventsOf(owner.id, 1)).toEqual(['member.created'])

    // add by id and by external id; an email the team already has gives that member back, with no event
    const added = json(await till(['customers', 'members', 'add', team.id, '--email', 'richard@hooli.example', '--name', 'Richard', '--json']))
    expect(added).toMatchObject({customer_id: team.id, email: 'richard@hooli.example', role: 'member', external_id: null})
    const piped = await till([
      'customers',
      'members',
      'add',
      '-e',
      'hooli',
      '--email',
      'jared@hooli.example',
      '--member-external-id',
      'jared',
      '--role',
      'billing_manager',
    ])
    expect(piped.code, piped.stderr).toBe(0)
    expect(piped.stdout).toMatch(/^[0-9a-f-]{36}\n$/)
    const again = json(await till(['customers', 'members', 'add', team.id, '--email', 'RICHARD@hooli.example', '--json']))
    expect(again.id).toBe(added.id)
    expect(await eventsOf(added.id, 1)).toEqual(['member.created'])

    // get: both ids, or both external ids
    expect(json(await till(['customers', 'members', 'get', team.id, added.id, '--json'])).email).toBe('richard@hooli.example')
    const jared = json(await till(['customers', 'members', 'get', '--external-id', 'hooli', 'jared', '--json']))
    expect(jared).toMatchObject({id: piped.stdout.trim(), role: 'billing_manager'})

    // update: the name and email; --role owner moves ownership, the former owner becomes a billing manager
    const renamed = json(await till(['customers', 'members', 'update', team.id, added.id, '--name', 'Richard H', '--email', 'rh@hooli.example', '--json']))
    expect(renamed).toMatchObject({name: 'Richard H', email: 'rh@hooli.example', role: 'member'})
    const promoted = await till(['customers', 'members', 'update', '-e', 'hooli', 'jared', '--role', 'owner', '--json'])
    expect(JSON.parse(promoted.stdout)).toMatchObject({id: jared.id, role: 'owner'})
    expect(promoted.stderr).toContain('Ownership moved: the former owner is now a billing manager.')
    expect(json(await till(['customers', 'members', 'get', team.id, owner.id, '--json'])).role).toBe('billing_manager')
    expect(await eventsOf(jared.id, 2)).toEqual(['member.created', 'member.updated'])

    // remove: confirmed (no terminal: --yes needed), then gone, with member.deleted
    const unconfirmed = await till(['customers', 'members', 'remove', team.id, added.id])
    expect(unconfirmed.code).toBe(2)
    expect(unconfirmed.stderr).toMatch(/--yes/)
    const removed = await till(['customers', 'members', 'remove', team.id, added.id, '--yes'])
    expect(removed.code, removed.stderr).toBe(0)
    expect(removed.stderr).toContain(`Removed member ${added.id} of customer ${team.id}.`)
    const gone = await till(['customers', 'members', 'get', team.id, added.id])
    expect(gone.code).toBe(3)
    expect(firstLine(gone)).toBe(`Error: not found: there is no member ${added.id} of customer ${team.id} in local (profile local)`)
    expect(await eventsOf(added.id, 3)).toEqual(['member.created', 'member.updated', 'member.deleted'])
    const left = json(await till(['customers', 'members', 'list', '-e', 'hooli', '--json']))
    expect(left.map((m: Json) => m.id).sort()).toEqual([owner.id, jared.id].sort())

    // deleting the customer deletes its members
    expect((await till(['customers', 'delete', team.id, '--yes'])).code).toBe(0)
    expect(await eventsOf(jared.id, 3)).toEqual(['member.created', 'member.updated', 'member.deleted'])
    expect(await eventsOf(owner.id, 2)).toEqual(['member.created', 'member.deleted'])
  })

  it("keeps the service's rules: one owner, one member for an individual, unique emails, no way back to individual", async () => {
    allowRefusals()
    const team = json(await till(['customers', 'create', '--type', 'team', '--email', newEmail('team'), '--json']))
    const [owner] = json(await till(['customers', 'members', 'list', team.id, '--json']))
    expect(owner).toMatchObject({email: team.email, role: 'owner'})

    const demote = await till(['customers', 'members', 'update', team.id, owner.id, '--role', 'member'])
    expect(demote.code).toBe(2)
    expect(demote.stderr).toContain('body.role: Cannot change role. Customer must have exactly one owner.')
    const removeOwner = await till(['customers', 'members', 'remove', team.id, owner.id, '--yes'])
    expect(removeOwner.code).toBe(2)
    expect(removeOwner.stderr).toContain('Cannot delete the only owner. Transfer ownership first.')

    const a = json(await till(['customers', 'members', 'add', team.id, '--email', 'a@team.example', '--member-external-id', 'a', '--json']))
    const sameEmail = await till(['customers', 'members', 'update', team.id, a.id, '--email', team.email])
    expect(sameEmail.code).toBe(2)
    expect(sameEmail.stderr).toContain('body.email: A member with this email already exists for this customer.')
    const sameExternal = await till(['customers', 'members', 'add', team.id, '--email', 'b@team.example', '--member-external-id', 'a'])
    expect(sameExternal.code).toBe(2)
    expect(sameExternal.stderr).toContain('body.external_id: A member with this external ID already exists for this customer.')
    // an owner cannot be added, only made by update (the flag's choices, before any request)
    const asOwner = await till(['customers', 'members', 'add', team.id, '--email', 'c@team.example', '--role', 'owner'])
    expect(asOwner.code).toBe(2)

    // an individual customer has its owner alone, until it is made a team; a team stays one
    const person = json(await till(['customers', 'create', '--email', newEmail('solo'), '--name', 'Solo', '--json']))
    expect(person.type).toBe('individual')
    const [soloOwner] = json(await till(['customers', 'members', 'list', person.id, '--json']))
    expect(soloOwner).toMatchObject({email: person.email, name: 'Solo', role: 'owner'})
    const refused = await till(['customers', 'members', 'add', person.id, '--email', 'friend@example.com'])
    expect(refused.code).toBe(4)
    expect(firstLine(refused)).toBe(
      'Error: not permitted: Individual customers can only have one member (the owner). Upgrade to a team customer to add more members.',
    )
    expect(refused.stderr).toContain(`Hint: make it a team customer first: till customers update ${person.id} --type team`)
    const ownerEmail = await till(['customers', 'members', 'update', person.id, soloOwner.id, '--email', 'other@example.com'])
    expect(ownerEmail.code).toBe(2)
    expect(ownerEmail.stderr).toContain("Cannot change the email of an individual customer's owner.")
    // the owner follows the customer's email
    const moved = newEmail('moved')
    expect((await till(['customers', 'update', person.id, '--email', moved])).code).toBe(0)
    expect(json(await till(['customers', 'members', 'get', person.id, soloOwner.id, '--json'])).email).toBe(moved)

    expect(json(await till(['customers', 'update', person.id, '--type', 'team', '--json'])).type).toBe('team')
    expect(json(await till(['customers', 'members', 'add', person.id, '--email', 'friend@example.com', '--json'])).role).toBe('member')
    const back = await till(['customers', 'update', person.id, '--type', 'individual'])
    expect(back.code).toBe(2)
    expect(back.stderr).toContain("body.type: Customer type cannot be downgraded from 'team' to 'individual'.")

    // a team customer with neither its own email nor an owner's has no owner to make
    const ownerless = await api(env, 'POST', '/customers/', {body: {type: 'team', name: 'Nobody'}})
    expect(ownerless.status).toBe(422)
    expect(ownerless.body.detail[0]).toMatchObject({loc: ['body', 'email'], msg: 'An email is required to create an owner member.'})

    // unknown customers and members
    const nobody = unknownId()
    const noCustomer = await till(['customers', 'members', 'list', nobody])
    expect(noCustomer.code).toBe(3)
    expect(firstLine(noCustomer)).toBe(`Error: not found: there is no customer ${nobody} in local (profile local)`)
    const noMember = await till(['customers', 'members', 'get', '-e', 'team_00001', 'nobody'])
    expect(noMember.code).toBe(3)
    expect(firstLine(noMember)).toBe(
      'Error: not found: there is no member with external id nobody of customer with external id team_00001 in local (profile local)',
    )
    const usage = await till(['customers', 'members', 'get', team.id])
    expect(usage.code).toBe(2)
    expect(firstLine(usage)).toBe('Error: give the customer id and the member id')
  })
})

describe('till portal members', () => {
  const asBill = ['--as-customer', 'team_00001', '--as-member-external-id', 'initech_bill']
  const asJoanna = ['--as-customer', 'team_00001', '--as-member-external-id', 'initech_joanna']

  it("lets the team's owner and billing manager list, add, change and remove members", async () => {
    const listed = json(await till(['portal', 'members', 'list', ...asJoanna, '--json']))
    expect(listed.map((m: Json) => m.email)).toEqual(['billing@initech.example', 'joanna@initech.example', 'peter@initech.example'])
    // the organization's list of one team gives the same order
    const org = json(await till(['customers', 'members', 'list', '-e', 'team_00001', '--json']))
    expect(org.map((m: Json) => m.email)).toEqual(listed.map((m: Json) => m.email))
    expect(Object.keys(listed[0]).sort()).toEqual(['created_at', 'email', 'id', 'modified_at', 'name', 'role'])
    const bill = listed[0]
    const joanna = listed[1]

    const milton = json(await till(['portal', 'members', 'add', ...asJoanna, '--email', 'milton@initech.example', '--name', 'Milton', '--json']))
    expect(milton).toMatchObject({email: 'milton@initech.example', name: 'Milton', role: 'member'})
    const changed = json(await till(['portal', 'members', 'update', milton.id, ...asJoanna, '--role', 'billing_manager', '--json']))
    expect(changed.role).toBe('billing_manager')
    expect(await eventsOf(milton.id, 1)).toEqual(['member.updated'])

    const removed = await till(['portal', 'members', 'remove', milton.id, ...asBill, '--yes'])
    expect(removed.code, removed.stderr).toBe(0)
    expect(await eventsOf(milton.id, 2)).toEqual(['member.updated', 'member.deleted'])

    // ownership: a billing manager cannot hand it over, the owner can (and becomes a billing manager)
    allowRefusals()
    const byManager = await till(['portal', 'members', 'update', joanna.id, ...asJoanna, '--role', 'owner'])
    expect(byManager.code).toBe(2)
    expect(byManager.stderr).toContain('You cannot modify your own role.')
    const peter = listed[2]
    const notOwner = await till(['portal', 'members', 'update', peter.id, ...asJoanna, '--role', 'owner'])
    expect(notOwner.code).toBe(2)
    expect(notOwner.stderr).toContain('body.role: Only the owner can transfer ownership.')
    const self = await till(['portal', 'members', 'remove', joanna.id, ...asJoanna, '--yes'])
    expect(self.code).toBe(2)
    expect(self.stderr).toContain('You cannot remove yourself from the team.')
    const handed = await till(['portal', 'members', 'update', joanna.id, ...asBill, '--role', 'owner', '--json'])
    expect(JSON.parse(handed.stdout).role).toBe('owner')
    expect(handed.stderr).toContain('Ownership moved: you are now a billing manager.')
    const roles = json(await till(['customers', 'members', 'list', '-e', 'team_00001', '--json']))
    expect(Object.fromEntries(roles.map((m: Json) => [m.id, m.role]))).toMatchObject({[bill.id]: 'billing_manager', [joanna.id]: 'owner'})
    // and back, for the other tests
    expect((await till(['portal', 'members', 'update', bill.id, ...asJoanna, '--role', 'owner'])).code).toBe(0)
  })

  it('refuses a plain member, an individual customer, and a team session without a member', async () => {
    allowRefusals()
    const members = json(await till(['customers', 'members', 'list', '-e', 'team_00001', '--role', 'member', '--json']))
    const peter = members.find((m: Json) => m.email === 'peter@initech.example')
    const plain = await till(['portal', 'members', 'list', '--as-customer', 'team_00001', '--as-member', peter.id])
    expect(plain.code).toBe(4)
    expect(firstLine(plain)).toBe('Error: not permitted: Insufficient role for this operation')
    expect(plain.stderr).toContain("Hint: act as the team's owner or a billing manager")

    const person = json(await till(['customers', 'create', '--email', newEmail('single'), '--json']))
    const individual = await till(['portal', 'members', 'add', '--as-customer-id', person.id, '--email', 'x@example.com'])
    expect(individual.code).toBe(4)
    expect(firstLine(individual)).toBe(
      'Error: not permitted: Member management is only available for team customers. Purchase a seat-based product to enable team features.',
    )

    const noMember = await till(['portal', 'members', 'list', '--as-customer', 'team_00001'])
    expect(noMember.code).toBe(2)
    expect(noMember.stderr).toBe(
      'Error: team_00001 is a team customer: its portal session acts as one of its members\nHint: add --as-member-external-id EXTERNAL_ID or --as-member ID (see: till customers members list --external-id team_00001)\n',
    )
    const stranger = await till(['portal', 'members', 'list', '--as-customer', 'team_00001', '--as-member', unknownId()])
    expect(stranger.code).toBe(2)
    expect(stranger.stderr).toContain('body.member_id: Member does not exist for this customer.')
    const lone = await till(['portal', 'members', 'list', '--as-member', peter.id])
    expect(lone.code).toBe(2)
    expect(firstLine(lone)).toMatch(/--as-member and --as-member-external-id name a member of the customer/)
  })

  it('till sessions create --external-member gives a member session for TILL_CUSTOMER_TOKEN', async () => {
    const token = await till(['sessions', 'create', '--external-customer', 'team_00001', '--external-member', 'initech_bill', '--token-only'])
    expect(token.code, token.stderr).toBe(0)
    const listed = await runInProcess(['portal', 'members', 'list', '-o', 'tsv', '--columns', 'email'], {
      env: box.env({...envVars(env), TILL_CUSTOMER_TOKEN: token.stdout.trim()}),
    })
    expect(listed.code, listed.stderr).toBe(0)
    expect(linesOf(listed.stdout)).toContain('peter@initech.example')

    // a member session ends with its member
    const temp = json(
      await till([
        'customers',
        'members',
        'add',
        '-e',
        'team_00001',
        '--email',
        'temp@initech.example',
        '--member-external-id',
        'temp',
        '--role',
        'billing_manager',
        '--json',
      ]),
    )
    const tempToken = await till(['sessions', 'create', '--external-customer', 'team_00001', '--external-member', 'temp', '--token-only'])
    const asTemp = {env: box.env({...envVars(env), TILL_CUSTOMER_TOKEN: tempToken.stdout.trim()})}
    expect((await runInProcess(['portal', 'members', 'list'], asTemp)).code).toBe(0)
    expect((await till(['customers', 'members', 'remove', '-e', 'team_00001', 'temp', '--yes'])).code).toBe(0)
    const ended = await runInProcess(['portal', 'members', 'list'], asTemp)
    expect(ended.code).toBe(4)
    expect(await eventsOf(temp.id, 2)).toEqual(['member.created', 'member.deleted'])
  })
})
