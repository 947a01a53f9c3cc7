// SDK contract checks of this round's operations: the published SDK (@polar-sh/sdk 0.49) parses every
// answer of the emulator with its own schemas, so a field missing, misnamed or mistyped fails here.
import {createHash} from 'node:crypto'

import {Polar} from '@polar-sh/sdk-0.49'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, startEmulator, type Emulator, type Json} from '../helpers/emulator.js'

describe('SDK contract: discounts and checkout update', () => {
  let emulator: Emulator
  let polar: Polar

  beforeAll(async () => {
    emulator = await startEmulator({orders: 20})
    polar = new Polar({accessToken: emulator.production.token, serverURL: emulator.production.url.replace(/\/v1$/, ''), retryConfig: {strategy: 'none'}})
  })
  afterAll(async () => {
    await emulator?.stop()
  })

  const newProduct = async (): Promise<Json> =>
    (await api(emulator.production, 'POST', '/products/', {body: {name: 'Contract product', prices: [{amount_type: 'fixed', price_amount: 1000}]}})).body

  it('discounts: create (percentage and fixed), get, list, update, delete', async () => {
    const product = await newProduct()
    const pct = await polar.discounts.create({
      type: 'percentage',
      name: 'SDK pct',
      basisPoints: 1500,
      duration: 'repeating',
      durationInMonths: 2,
      code: 'SDKPCT',
      products: [product.id],
    })
    expect(pct).toMatchObject({type: 'percentage', basisPoints: 1500, durationInMonths: 2, code: 'SDKPCT'})
    const fixed = await polar.discounts.create({type: 'fixed', name: 'SDK fixed', amount: 300, currency: 'usd', duration: 'forever', metadata: {k: 'v'}})
    expect(fixed).toMatchObject({type: 'fixed', amounts: {usd: 300}, amount: 300, currency: 'usd', metadata: {k: 'v'}})

    expect(await polar.discounts.get({id: pct.id})).toMatchObject({id: pct.id, products: [{id: product.id}]})
    const page = await polar.discounts.list({query: 'SDK', limit: 1})
    expect(page.result.items).toHaveLength(1)
    expect(page.result.pagination.totalCount).toBe(2)
    const next = await page.next()
    expect(next?.result.items).toHaveLength(1)

    const updated = await polar.discounts.update({
      id: fixed.id,
      discountUpdate: {name: 'SDK fixed 2', maxRedemptions: 3, endsAt: new Date('2099-01-01T00:00:00Z')},
    })
    expect(updated).toMatchObject({name: 'SDK fixed 2', maxRedemptions: 3})
    expect(updated.endsAt?.toISOString()).toBe('2099-01-01T00:00:00.000Z')

    await polar.discounts.delete({id: fixed.id})
    await expect(polar.discounts.get({id: fixed.id})).rejects.toMatchObject({name: 'ResourceNotFound'})
  })

  it('checkouts: update applies a discount and the SDK parses the embedded discount', async () => {
    const product = await newProduct()
    const d = await polar.discounts.create({type: 'percentage', name: 'Half', basisPoints: 5000, duration: 'once'})
    const k = await polar.checkouts.create({products: [product.id]})
    const updated = await polar.checkouts.update({id: k.id, checkoutUpdate: {discountId: d.id}})
    expect(updated).toMatchObject({discountId: d.id, discountAmount: 500, netAmount: 500, discount: {id: d.id}})
  })

  it('subscriptions: update with a discount; the SDK parses the subscription with its embedded discount', async () => {
    const page = await polar.subscriptions.list({active: true, limit: 20})
    const s = page.result.items.find((x) => x.discountId === null && x.status === 'active' && x.currency === 'usd')!
    const d = await polar.discounts.create({type: 'fixed', name: 'Loyal', amount: 100, currency: 'usd', duration: 'repeating', durationInMonths: 6})
    const updated = await polar.subscriptions.update({id: s.id, subscriptionUpdate: {discountId: d.id}})
    expect(updated).toMatchObject({id: s.id, discountId: d.id, discount: {id: d.id, duration: 'repeating', durationInMonths: 6}})
    expect((await polar.discounts.get({id: d.id})).redemptionsCount).toBe(1)
  })

  it('payments: list and get parse as card payments', async () => {
    const page = await polar.payments.list({limit: 5})
    expect(page.result.items.length).toBeGreaterThan(0)
    const first = page.result.items[0]!
    expect(first).toMatchObject({method: 'card', status: 'succeeded', processor: 'stripe'})
    expect(await polar.payments.get({id: first.id})).toMatchObject({id: first.id, orderId: first.orderId})
    const byOrder = await polar.payments.list({orderId: first.orderId!})
    expect(byOrder.result.items.map((p) => p.id)).toEqual([first.id])
  })

  it('disputes: list, get, accept (then 409 DisputeNotOpenError)', async () => {
    const page = await polar.disputes.list({status: 'needs_response'})
    const d = page.result.items[0]!
    expect(d).toMatchObject({status: 'needs_response', resolved: false})
    expect(await polar.disputes.get({id: d.id})).toMatchObject({id: d.id, paymentId: d.paymentId, customer: {id: d.customer.id}})
    expect(await polar.disputes.accept({id: d.id})).toMatchObject({id: d.id, status: 'lost', resolved: true, closed: true})
    await expect(polar.disputes.accept({id: d.id})).rejects.toMatchObject({name: 'DisputeNotOpenError', statusCode: 409})
  })

  it('checkout links: update with a discount; organizations: update', async () => {
    const product = await newProduct()
    const link = await polar.checkoutLinks.create({paymentProcessor: 'stripe', products: [product.id], label: 'Contract link'})
    const d = await polar.discounts.create({type: 'percentage', name: 'Link', basisPoints: 1000, duration: 'once'})
    const updated = await polar.checkoutLinks.update({id: link.id, checkoutLinkUpdate: {label: 'Renamed', discountId: d.id}})
    expect(updated).toMatchObject({label: 'Renamed', discountId: d.id})
    const org = await polar.organizations.update({id: emulator.production.organizationId, organizationUpdate: {email: 'ops@acme.example'}})
    expect(org).toMatchObject({id: emulator.production.organizationId, email: 'ops@acme.example'})
  })

  it('license keys: update and getActivation; benefit grants: list across benefits', async () => {
    const key = (await polar.licenseKeys.list({limit: 1})).result.items[0]!
    expect(await polar.licenseKeys.update({id: key.id, licenseKeyUpdate: {limitUsage: 10, usage: 2}})).toMatchObject({id: key.id, limitUsage: 10, usage: 2})
    const act = await polar.licenseKeys.activate({key: key.key, organizationId: emulator.production.organizationId, label: 'contract'})
    expect(await polar.licenseKeys.getActivation({id: key.id, activationId: act.id})).toMatchObject({id: act.id, label: 'contract', licenseKeyId: key.id})
    const grants = await polar.benefitGrants.list({limit: 5, isGranted: true})
    expect(grants.result.items.length).toBeGreaterThan(0)
    expect(grants.result.items.every((g) => g.isGranted)).toBe(true)
  })

  it('webhooks: listWebhookDeliveries, redeliverWebhookEvent, resetWebhookEndpointSecret', async () => {
    const endpoint = await polar.webhooks.createWebhookEndpoint({url: 'http://127.0.0.1:9/nowhere', format: 'raw', events: ['customer.created']})
    await polar.customers.create({email: `contract-${Date.now()}@example.com`})
    let page = await polar.webhooks.listWebhookDeliveries({endpointId: endpoint.id})
    for (let i = 0; i < 100 && page.result.items.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50))
      page = await polar.webhooks.listWebhookDeliveries({endpointId: endpoint.id})
    }
    const delivery = page.result.items[0]!
    expect(delivery).toMatchObject({succeeded: false, webhookEvent: {type: 'customer.created'}})
    await polar.webhooks.redeliverWebhookEvent({id: delivery.webhookEvent.id})
    const reset = await polar.webhooks.resetWebhookEndpointSecret({id: endpoint.id})
    expect(reset.secret).not.toBe(endpoint.secret)
  })

  it('orders: receipt; orders, subscriptions and customers: export (CSV text)', async () => {
    const paid = (await polar.orders.list({limit: 50})).result.items.find((o) => o.status === 'paid')!
    const receipt = await polar.orders.receipt({id: paid.id})
    expect(receipt?.url).toMatch(/\/files\/receipts\//)
    const pdf = await fetch(receipt!.url)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    const orders = await polar.orders.export({})
    expect(orders.split('\r\n')[0]).toBe('Email,Created At,Product,Net Amount,Currency,Status,Invoice number')
    expect((await polar.subscriptions.export({})).split('\r\n')[0]).toBe('Email,Started At,Product,Amount,Currency,Status,Recurring Interval')
    expect((await polar.customers.export({})).split('\r\n')[0]).toBe('ID,External ID,Created At,Email,Name,Billing Country,Metadata')
  })

  it('customers: listPaymentMethods and listPaymentMethodsExternal', async () => {
    const paid = (await polar.orders.list({limit: 100})).result.items.find((o) => o.status === 'paid' && o.totalAmount > 0 && o.customer.externalId)!
    const byId = await polar.customers.listPaymentMethods({id: paid.customerId})
    expect(byId.result.items).toHaveLength(1)
    expect(byId.result.items[0]).toMatchObject({type: 'card', customerId: paid.customerId, methodMetadata: {last4: '4242', expYear: 2030}})
    const byExternal = await polar.customers.listPaymentMethodsExternal({externalId: paid.customer.externalId!})
    expect(byExternal.result.items.map((m) => m.id)).toEqual(byId.result.items.map((m) => m.id))
  })

  it('custom fields: create, get, list, update, delete; attached to a product', async () => {
    const field = await polar.customFields.create({type: 'select', slug: 'plan-size', name: 'Plan size', properties: {options: [{value: 's', label: 'Small'}]}})
    expect(field).toMatchObject({type: 'select', slug: 'plan-size'})
    expect(await polar.customFields.get({id: field.id})).toMatchObject({id: field.id, name: 'Plan size'})
    const page = await polar.customFields.list({typeFilter: 'select'})
    expect(page.result.items.map((f) => f.id)).toContain(field.id)
    const updated = await polar.customFields.update({id: field.id, customFieldUpdate: {type: 'select', name: 'Size'}})
    expect(updated).toMatchObject({name: 'Size'})
    const product = await newProduct()
    const withField = await polar.products.update({id: product.id, productUpdate: {attachedCustomFields: [{customFieldId: field.id, required: true}]}})
    expect(withField.attachedCustomFields).toMatchObject([{customFieldId: field.id, required: true, order: 0}])
    // a checkout of the product asks the product's fields
    const k = await polar.checkouts.create({products: [product.id]})
    expect(k.attachedCustomFields).toMatchObject([{customFieldId: field.id, required: true, customField: {slug: 'plan-size'}}])
    await polar.customFields.delete({id: field.id})
    await expect(polar.customFields.get({id: field.id})).rejects.toMatchObject({name: 'ResourceNotFound'})
  })

  it('custom field data: checked against the attached fields on create, update and confirm; the order and subscription carry it', async () => {
    const anonymous = new Polar({serverURL: emulator.production.url.replace(/\/v1$/, ''), retryConfig: {strategy: 'none'}})
    const tag = Math.random().toString(36).slice(2, 8)
    const mk = (body: object) => api(emulator.production, 'POST', '/custom-fields/', {body}).then((r) => r.body as Json)
    const company = await mk({type: 'text', slug: `company-${tag}`, name: 'Company', properties: {min_length: 2, max_length: 10}})
    const seats = await mk({type: 'number', slug: `seats-${tag}`, name: 'Seats', properties: {ge: 1, le: 50}})
    const terms = await mk({type: 'checkbox', slug: `terms-${tag}`, name: 'Terms', properties: {}})
    const size = await mk({
      type: 'select',
      slug: `size-${tag}`,
      name: 'Size',
      properties: {
        options: [
          {value: 's', label: 'S'},
          {value: 'm', label: 'M'},
          {value: 'l', label: 'L'},
        ],
      },
    })
    const start = await mk({type: 'date', slug: `start-${tag}`, name: 'Start', properties: {ge: Date.parse('2026-01-01T00:00:00Z') / 1000}})
    const product = (
      await api(emulator.production, 'POST', '/products/', {
        body: {name: 'Plan with fields', recurring_interval: 'month', prices: [{amount_type: 'fixed', price_amount: 1000}]},
      })
    ).body
    await polar.products.update({
      id: product.id,
      productUpdate: {
        attachedCustomFields: [
          {customFieldId: company.id, required: true},
          {customFieldId: seats.id, required: false},
          {customFieldId: terms.id, required: true},
          {customFieldId: size.id, required: false},
          {customFieldId: start.id, required: false},
        ],
      },
    })

    // create: every field optional; unknown keys dropped; absent ones null (a checkbox false)
    const k = await polar.checkouts.create({products: [product.id], customFieldData: {[seats.slug]: 3, other: 'x'}})
    expect(k.customFieldData).toEqual({[company.slug]: null, [seats.slug]: 3, [terms.slug]: false, [size.slug]: null, [start.slug]: null})
    // each bad value is one issue at body.custom_field_data.SLUG, with the validation library's type
    const bad = await api(emulator.production, 'PATCH', `/checkouts/${k.id}`, {
      body: {custom_field_data: {[company.slug]: 'x', [seats.slug]: 51, [size.slug]: 'xl', [start.slug]: '2025-12-31'}},
    })
    expect(bad.status).toBe(422)
    expect(bad.body.error).toBe('PolarRequestValidationError')
    expect(bad.body.detail).toEqual([
      {
        type: 'string_too_short',
        loc: ['body', 'custom_field_data', company.slug],
        msg: 'String should have at least 2 characters',
        input: 'x',
        ctx: {min_length: 2},
      },
      {type: 'less_than_equal', loc: ['body', 'custom_field_data', seats.slug], msg: 'Input should be less than or equal to 50', input: 51, ctx: {le: 50}},
      {
        type: 'literal_error',
        loc: ['body', 'custom_field_data', size.slug],
        msg: "Input should be 's', 'm' or 'l'",
        input: 'xl',
        ctx: {expected: "'s', 'm' or 'l'"},
      },
      {
        type: 'greater_than_equal',
        loc: ['body', 'custom_field_data', start.slug],
        msg: 'Input should be greater than or equal to 2026-01-01',
        input: '2025-12-31',
        ctx: {ge: '2026-01-01'},
      },
    ])
    await expect(polar.checkouts.update({id: k.id, checkoutUpdate: {customFieldData: {[seats.slug]: 'many'}}})).rejects.toMatchObject({statusCode: 422})
    const updated = await polar.checkouts.update({
      id: k.id,
      checkoutUpdate: {customFieldData: {[company.slug]: 'Acme', [seats.slug]: '12', [size.slug]: 'm', [start.slug]: '2026-03-01'}},
    })
    expect(updated.customFieldData).toEqual({
      [company.slug]: 'Acme',
      [seats.slug]: 12,
      [terms.slug]: false,
      [size.slug]: 'm',
      [start.slug]: '2026-03-01T00:00:00',
    })

    // confirm: the required fields are required (a required checkbox must be true)
    const missing = await api(emulator.production, 'POST', `/checkouts/client/${k.clientSecret}/confirm`, {
      token: null,
      body: {
        customer_email: `cf-${tag}@example.com`,
        customer_name: 'Ada',
        customer_billing_address: {country: 'US'},
        custom_field_data: {[terms.slug]: false},
      },
    })
    expect(missing.status).toBe(422)
    expect(missing.body.detail).toEqual([
      {type: 'missing', loc: ['body', 'custom_field_data', company.slug], msg: 'Field required', input: {[terms.slug]: false}},
      {type: 'literal_error', loc: ['body', 'custom_field_data', terms.slug], msg: 'Input should be True', input: false, ctx: {expected: 'True'}},
    ])
    const data = {[company.slug]: 'Acme', [terms.slug]: true, [seats.slug]: 5}
    const confirmed = await anonymous.checkouts.clientConfirm({
      clientSecret: k.clientSecret,
      checkoutConfirmStripe: {customerEmail: `cf-${tag}@example.com`, customerName: 'Ada', customerBillingAddress: {country: 'US'}, customFieldData: data},
    })
    const stored = {...data, [size.slug]: null, [start.slug]: null}
    expect(confirmed.customFieldData).toEqual(stored)
    const order = (await polar.orders.list({checkoutId: k.id})).result.items[0]!
    expect(order.customFieldData).toEqual(stored)
    expect((await polar.subscriptions.get({id: order.subscriptionId!})).customFieldData).toEqual(stored)
  })

  it('files: create, PUT the part to its URL, uploaded, list, update, delete', async () => {
    const data = Buffer.from('contract file bytes')
    const sha = createHash('sha256').update(data).digest('base64')
    const created = await polar.files.create({
      service: 'downloadable',
      name: 'c.txt',
      mimeType: 'text/plain',
      size: data.length,
      checksumSha256Base64: sha,
      upload: {parts: [{number: 1, chunkStart: 0, chunkEnd: data.length - 1, checksumSha256Base64: sha}]},
    })
    expect(created).toMatchObject({isUploaded: false, upload: {parts: [{number: 1}]}})
    const put = await fetch(created.upload.parts[0]!.url, {method: 'PUT', body: data})
    expect(put.status).toBe(200)
    const done = await polar.files.uploaded({
      id: created.id,
      fileUploadCompleted: {
        id: created.upload.id,
        path: created.upload.path,
        parts: [{number: 1, checksumEtag: put.headers.get('etag')!, checksumSha256Base64: sha}],
      },
    })
    expect(done).toMatchObject({id: created.id, isUploaded: true, checksumSha256Base64: sha})
    const page = await polar.files.list({})
    expect(page.result.items.map((f) => f.id)).toContain(created.id)
    // scoped to the token's organization, as every list is: another organization's files are none of these
    const other = await polar.files.list({organizationId: crypto.randomUUID()})
    expect(other.result.items).toEqual([])
    expect(await polar.files.update({id: created.id, filePatch: {name: 'renamed.txt'}})).toMatchObject({name: 'renamed.txt'})
    await polar.files.delete({id: created.id})
    expect((await polar.files.list({})).result.items.map((f) => f.id)).not.toContain(created.id)
  })
})
