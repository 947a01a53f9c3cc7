// Contract (SDK 1.0.1, 2026-10): a customer's members (customers.members, 10 operations, by ids and by
// external ids) and the team's members in the customer portal (customerPortal.members, 4 operations) through
// the SDK, each answer checked key by key against the SDK's declarations (the two nested lists are newer
// than the published document, so the contract mode cannot check them: expectShape does).
import {errors} from '@polar-sh/sdk/2026-10'
import {describe, expect, it} from 'vitest'

import {unknownId} from '../helpers/emulator.js'
import {everyPage, expectShape, rejection, useContract} from './harness.js'

const h = useContract()

describe('customers.members', () => {
  it('lists every page by id and by external id, and creates, gets, updates and deletes by either', async () => {
    const team = await h.polar.customers.getExternal('team_00001')
    const byId = await everyPage((q) => h.polar.customers.members.list(team.id, q), 2)
    expect(byId.items.length).toBe(byId.totalCount)
    expect(byId.items.map((m) => m.role).sort()).toEqual(['billing_manager', 'member', 'owner'])
    for (const m of byId.items) expectShape('2026-10', 'Member', m)
    const byExternal = await everyPage((q) => h.polar.customers.members.listExternal('team_00001', {...q, role: 'owner'}))
    expect(byExternal.items.map((m) => m.email)).toEqual(['billing@initech.example'])

    const made = await h.polar.customers.members.create(team.id, {email: 'contract.one@initech.example', name: 'One'})
    expectShape('2026-10', 'Member', made)
    expect(made).toMatchObject({customer_id: team.id, role: 'member', name: 'One'})
    const external = await h.polar.customers.members.createExternal('team_00001', {
      email: 'contract.two@initech.example',
      external_id: 'contract_two',
      role: 'billing_manager',
    })
    expect((await h.polar.customers.members.get(team.id, made.id)).email).toBe('contract.one@initech.example')
    expect((await h.polar.customers.members.getExternal('team_00001', 'contract_two')).id).toBe(external.id)
    expect((await h.polar.customers.members.update(team.id, made.id, {name: 'Uno'})).name).toBe('Uno')
    expect((await h.polar.customers.members.updateExternal('team_00001', 'contract_two', {role: 'member'})).role).toBe('member')
    await h.polar.customers.members.delete(team.id, made.id)
    await h.polar.customers.members.deleteExternal('team_00001', 'contract_two')
    expect(await rejection(h.polar.customers.members.get(team.id, made.id))).toBeInstanceOf(errors.ResourceNotFound)
    expect(await rejection(h.polar.customers.members.getExternal('team_00001', 'contract_two'))).toBeInstanceOf(errors.ResourceNotFound)
    expect(await rejection(h.polar.customers.members.list(unknownId()))).toBeInstanceOf(errors.ResourceNotFound)
    // an individual customer has its owner alone
    const person = (await everyPage((q) => h.polar.customers.list(q))).items.find((c) => c.type === 'individual')!
    const refused = await rejection(h.polar.customers.members.create(person.id, {email: 'second@example.com'}))
    expect(refused).toBeInstanceOf(errors.NotPermitted)
  })
})

describe('customerPortal.members', () => {
  it("lists, adds, updates and removes the team's members with the owner's member session", async () => {
    const session = await h.polar.customerSessions.create({external_customer_id: 'team_00001', external_member_id: 'initech_bill'})
    const portal = h.client('2026-10', session.token)
    const listed = await everyPage((q) => portal.customerPortal.members.listMembers(q), 2)
    expect(listed.items.length).toBe(listed.totalCount)
    for (const m of listed.items) expectShape('2026-10', 'CustomerPortalMember', m)
    const raw = await h.raw('GET', '/customer-portal/members', {token: session.token})
    expect(Object.keys(raw.body.items[0]).sort()).toEqual(['created_at', 'email', 'id', 'modified_at', 'name', 'role'])

    const added = await portal.customerPortal.members.addMember({email: 'contract.portal@initech.example', name: 'Portal'})
    expectShape('2026-10', 'CustomerPortalMember', added)
    expect((await portal.customerPortal.members.updateMember(added.id, {role: 'billing_manager'})).role).toBe('billing_manager')
    await portal.customerPortal.members.removeMember(added.id)
    expect((await rejection(portal.customerPortal.members.removeMember(added.id))).statusCode).toBe(404)
  })
})
