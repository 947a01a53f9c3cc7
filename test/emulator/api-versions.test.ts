// The emulator honours Polar-Version: 2026-10 by default, the three versions the service knows accepted (or
// fewer, told so), any other refused as the service refuses it,
// and each version's shapes where they differ (license keys; webhook endpoints' payload version and the
// event types a version knows), plus the fields every version's document requires of these shapes.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {allowRefusals} from '../helpers/contract.js' // this file runs in the contract mode, whatever the suite's setup
import {api, listAll, startEmulator, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'

const v = (version: string) => ({headers: {'polar-version': version}})

describe('API versions in the emulator', () => {
  let emulator: Emulator
  let env: EnvHandle
  let keys: Json[]
  /** A granted key of a subscription (with activations allowed) and one of a one-time order, if seeded. */
  let ofSubscription: Json
  let grants: Json[]

  beforeAll(async () => {
    emulator = await startEmulator({orders: 30})
    env = emulator.production
    keys = await listAll(env, '/license-keys/')
    grants = await listAll(env, '/benefit-grants/')
    const grantOf = (k: Json) => grants.find((g) => g.properties?.license_key_id === k.id)
    ofSubscription = keys.find((k) => k.status === 'granted' && k.limit_activations && grantOf(k)?.subscription_id)
    expect(ofSubscription).toBeDefined()
  })
  afterAll(async () => {
    await emulator?.stop()
  })

  it('answers 2026-10 when no Polar-Version is sent, and echoes each known version', async () => {
    const plain = await api(env, 'GET', '/license-keys/?limit=1')
    expect(plain.headers.get('polar-version')).toBe('2026-10')
    for (const version of ['2026-04', '2026-10', '2027-01'])
      expect((await api(env, 'GET', '/license-keys/?limit=1', v(version))).headers.get('polar-version')).toBe(version)
    // an empty header is no header, as the service reads it
    expect((await api(env, 'GET', '/license-keys/?limit=1', v(''))).headers.get('polar-version')).toBe('2026-10')
  })

  it('refuses a version it does not serve on every route: 404 {"detail":"Not Found"} without the Polar-Version echo', async () => {
    const id = crypto.randomUUID()
    for (const version of ['2026-07', '2031-01', 'latest', '2026-10, 2027-01'])
      for (const [method, path] of [
        ['GET', '/license-keys/?limit=1'],
        ['GET', `/orders/${id}`],
        ['POST', '/customers/'],
        ['GET', '/no-such-route'],
      ] as const) {
        const refused = await api(env, method, path, {...v(version), ...(method === 'POST' ? {body: {email: 'x@example.com'}} : {})})
        expect([refused.status, refused.text, refused.headers.get('polar-version')], `${version} ${method} ${path}`).toEqual([
          404,
          '{"detail":"Not Found"}',
          null,
        ])
      }
    // a missing object or route of a served version keeps the echo (what tells the two apart)
    const missing = await api(env, 'GET', `/orders/${id}`, v('2026-10'))
    expect([missing.status, missing.body.error, missing.headers.get('polar-version')]).toEqual([404, 'ResourceNotFound', '2026-10'])
    const noRoute = await api(env, 'GET', '/no-such-route', v('2026-10'))
    expect([noRoute.status, noRoute.text, noRoute.headers.get('polar-version')]).toEqual([404, '{"detail":"Not Found"}', '2026-10'])
  })

  it('told to serve fewer versions (the removal of 2026-04 rehearsed), refuses the others the same way', async () => {
    const fewer = await startEmulator({orders: 0, apiVersions: ['2026-10', '2027-01']})
    try {
      const removed = await api(fewer.production, 'GET', '/products/?limit=1', v('2026-04'))
      expect([removed.status, removed.text, removed.headers.get('polar-version')]).toEqual([404, '{"detail":"Not Found"}', null])
      for (const version of ['2026-10', '2027-01'])
        expect((await api(fewer.production, 'GET', '/products/?limit=1', v(version))).headers.get('polar-version')).toBe(version)
      expect((await api(fewer.production, 'GET', '/products/?limit=1')).headers.get('polar-version')).toBe('2026-10')
    } finally {
      await fewer.stop()
    }
  })

  it('license keys carry member_id and member from 2026-10 on (null: no member), and their customer its first_user_event_at', async () => {
    const id = ofSubscription.id
    for (const path of ['/license-keys/?limit=5', `/license-keys/${id}`]) {
      const old = await api(env, 'GET', path, v('2026-04'))
      const now = await api(env, 'GET', path, v('2026-10'))
      const oldKey = old.body.items?.[0] ?? old.body
      const newKey = now.body.items?.[0] ?? now.body
      expect(oldKey).not.toHaveProperty('member_id')
      expect(oldKey).not.toHaveProperty('member')
      expect(newKey).toMatchObject({member_id: null, member: null})
      for (const key of [oldKey, newKey]) expect(key.customer).toHaveProperty('first_user_event_at', null)
      expect(newKey).not.toHaveProperty('subscription_id')
    }
  })

  it('from 2027-01 a validation and an activation also name the subscription and the order of the key (null when absent)', async () => {
    const body = {key: ofSubscription.key, organization_id: env.organizationId}
    const before = await api(env, 'POST', '/license-keys/validate', {...v('2026-10'), body})
    expect(before.status).toBe(200)
    expect(before.body).not.toHaveProperty('subscription_id')
    const validated = await api(env, 'POST', '/license-keys/validate', {...v('2027-01'), body})
    expect(validated.status).toBe(200)
    const grant = grants.find((g) => g.properties?.license_key_id === ofSubscription.id)
    const subscription = (await api(env, 'GET', `/subscriptions/${grant.subscription_id}`)).body
    expect(validated.body).toMatchObject({
      member_id: null,
      subscription_id: subscription.id,
      subscription: {
        id: subscription.id,
        status: subscription.status,
        current_period_start: subscription.current_period_start,
        current_period_end: subscription.current_period_end,
        cancel_at_period_end: subscription.cancel_at_period_end,
        ends_at: subscription.ends_at,
      },
      order_id: null,
      order: null,
    })
    expect(Object.keys(validated.body.subscription).sort()).toEqual([
      'cancel_at_period_end',
      'current_period_end',
      'current_period_start',
      'ends_at',
      'id',
      'status',
    ])
    // the portal's twin, unauthenticated, answers the same shape
    const portal = await api(env, 'POST', '/customer-portal/license-keys/validate', {...v('2027-01'), body, token: null})
    expect(portal.body).toMatchObject({subscription_id: subscription.id, order_id: null})
    const activated = await api(env, 'POST', '/license-keys/activate', {...v('2027-01'), body: {...body, label: 'api-versions test'}})
    expect(activated.status).toBe(200)
    expect(activated.body.license_key).toMatchObject({member: null, subscription_id: subscription.id, order: null})
    // reading the activation back is LicenseKeyActivationRead: a plain key, without them
    const read = await api(env, 'GET', `/license-keys/${ofSubscription.id}/activations/${activated.body.id}`, v('2027-01'))
    expect(read.body.license_key).toMatchObject({member_id: null})
    expect(read.body.license_key).not.toHaveProperty('subscription_id')
    expect((await api(env, 'POST', '/license-keys/deactivate', {body: {...body, activation_id: activated.body.id}})).status).toBe(204)
  })

  it('a key granted by a one-time order names its order (paid) and no subscription, from 2027-01', async () => {
    const grant = grants.find((g) => g.order_id && !g.subscription_id && keys.some((k) => k.id === g.properties?.license_key_id && k.status === 'granted'))
    if (!grant) return expect(grants.some((g) => g.order_id && g.properties?.license_key_id)).toBe(false)
    const key = keys.find((k) => k.id === grant.properties.license_key_id)
    const order = (await api(env, 'GET', `/orders/${grant.order_id}`)).body
    const validated = await api(env, 'POST', '/license-keys/validate', {...v('2027-01'), body: {key: key.key, organization_id: env.organizationId}})
    expect(validated.body).toMatchObject({
      subscription_id: null,
      subscription: null,
      order_id: order.id,
      order: {id: order.id, created_at: order.created_at, status: order.status, paid: order.paid},
    })
  })

  describe('webhook endpoints', () => {
    const create = (version: string, extra: Record<string, unknown> = {}) =>
      api(env, 'POST', '/webhooks/endpoints', {...v(version), body: {url: 'https://example.com/hooks', format: 'raw', events: ['order.paid'], ...extra}})

    it("report their payload version (the service's current one, 2026-10, by default) and their signature scheme", async () => {
      for (const version of ['2026-04', '2026-10', '2027-01']) {
        const made = await create(version)
        expect(made.status).toBe(201)
        expect(made.body).toMatchObject({api_version: '2026-10', uses_standard_webhook_signature: true})
      }
      const pinned = await create('2026-10', {api_version: '2026-04'})
      expect(pinned.body.api_version).toBe('2026-04')
      const changed = await api(env, 'PATCH', `/webhooks/endpoints/${pinned.body.id}`, {...v('2026-10'), body: {api_version: '2027-01'}})
      expect(changed.body.api_version).toBe('2027-01')
      expect((await api(env, 'GET', `/webhooks/endpoints/${pinned.body.id}`)).body.api_version).toBe('2027-01')
      allowRefusals()
      const bad = await create('2026-10', {api_version: '2025-01'})
      expect(bad.status).toBe(422)
      expect(bad.body.detail[0].loc).toEqual(['body', 'api_version'])
    })

    it("take the event types of the request's version: subscription.migrated in every version, as a delivery filter too", async () => {
      for (const version of ['2026-04', '2026-10', '2027-01']) {
        const made = await create(version, {events: ['order.paid', 'subscription.migrated']})
        expect(made.status, JSON.stringify(made.body)).toBe(201)
        expect(made.body.events).toEqual(['order.paid', 'subscription.migrated'])
        const filter = await api(env, 'GET', '/webhooks/deliveries?event_type=subscription.migrated', v(version))
        expect(filter.status).toBe(200)
      }
      allowRefusals()
      const refused = await create('2026-10', {events: ['order.paid', 'subscription.migrate']})
      expect(refused.status).toBe(422)
      expect(refused.body.detail[0].loc).toEqual(['body', 'events', 1])
    })
  })
})
