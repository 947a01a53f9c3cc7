import {describe, expect, it} from 'vitest'

import {OutcomeUnknownError} from './errors.js'
import {OPERATIONS, type OperationId, UNDOCUMENTED_OPERATIONS} from './operations.generated.js'
import {operationOf} from './operation-of.js'
import {declaredSettlement, MARKER_KEY, SETTLEMENTS, settleLost, settlementOf, type Reader} from './settlement.js'
import {COMMAND_OPERATIONS, SHARED_OPERATIONS} from './till-scopes.generated.js'

describe('the settlement of each write', () => {
  it('every writing operation a till command sends declares how a lost answer is settled', () => {
    const sent = new Set([...Object.values(COMMAND_OPERATIONS).flat(), ...SHARED_OPERATIONS])
    const writes = [...sent].filter((id) => Object.hasOwn(OPERATIONS, id) && OPERATIONS[id as OperationId].method !== 'GET')
    expect(writes.length).toBeGreaterThan(40)
    expect(writes.filter((id) => !declaredSettlement(id as OperationId))).toEqual([])
    // and declares nothing for an operation that does not exist, or only reads
    const all: Record<string, {method: string}> = {...OPERATIONS, ...UNDOCUMENTED_OPERATIONS}
    for (const id of Object.keys(SETTLEMENTS)) expect(all[id]?.method, id).not.toBe('GET')
    for (const id of Object.keys(SETTLEMENTS)) expect(all[id], id).toBeDefined()
  })

  it("a description's derived commands get their settlement from their verb", () => {
    expect(SETTLEMENTS['metrics:create_dashboard']).toBeUndefined()
    expect(declaredSettlement('metrics:create_dashboard')).toEqual({kind: 'unknown', truth: 'till metrics dashboards list'})
    expect(declaredSettlement('metrics:update_dashboard')?.kind).toBe('idempotent')
    const del = declaredSettlement('metrics:delete_dashboard')
    expect(del?.kind === 'idempotent' && del.done?.(404, undefined)).toBe(true)
  })

  it('finds the operation of a request path, the most literal template first', () => {
    expect(operationOf('POST', '/orders/5e9c/invoice')).toBe('orders:generate_invoice')
    expect(operationOf('GET', '/orders/export?x=1')).toBe('orders:export')
    expect(operationOf('GET', '/orders/5e9c')).toBe('orders:get')
    expect(operationOf('DELETE', '/v1/customers/external/user_1')).toBe('customers:delete_external')
    expect(operationOf('POST', '/nothing/here')).toBeUndefined()
    // an operation newer than the document (scripts/operations.js UNDOCUMENTED) is found and settled too
    expect(operationOf('POST', '/customer-portal/license-keys/5e9c/rotate')).toBe('customer_portal:license_keys:rotate')
    expect(settlementOf('POST', '/v1/customer-portal/license-keys/5e9c/rotate').kind).toBe('unknown')
    expect(settlementOf('GET', '/anything').kind).toBe('idempotent')
    expect(settlementOf('PATCH', '/products/p1').kind).toBe('idempotent')
    expect(settlementOf('POST', '/products/').kind).toBe('unknown')
    expect(settlementOf('POST', '/customers/').kind).toBe('lookup')
    // a write of no known operation (till api) cannot be settled
    expect(settlementOf('POST', '/made/up')).toMatchObject({kind: 'unknown', truth: 'till api GET /made/up'})
  })

  it("a lost clock advance or reset is settled by the clock's state: till emulator clock", () => {
    const clock = 'http://127.0.0.1:4010/_emulator/clock'
    for (const path of [`${clock}/advance`, `${clock}/reset?x=1`]) {
      expect(settlementOf('POST', path)).toMatchObject({kind: 'unknown', truth: 'till emulator clock'})
    }
  })

  it('a DELETE answered 404, and an invoice answered InvoiceAlreadyExists, after a lost answer were done', () => {
    const del = settlementOf('DELETE', '/customers/c1')
    expect(del.kind === 'idempotent' && del.done?.(404, 'ResourceNotFound')).toBe(true)
    const invoice = settlementOf('POST', '/orders/o1/invoice')
    expect(invoice.kind === 'idempotent' && invoice.done?.(409, 'InvoiceAlreadyExists')).toBe(true)
    expect(invoice.kind === 'idempotent' && invoice.done?.(422, undefined)).toBe(false)
  })

  it('a lookup returns what the first send made, or sends again when nothing was made', async () => {
    const asked: string[] = []
    const reader = (customers: unknown[]): Reader => ({
      get: async <T>(path: string, opts?: {query?: Record<string, unknown>}) => {
        asked.push(`${path} ${JSON.stringify(opts?.query ?? {})}`)
        if (path.startsWith('/customers/external/')) {
          if (customers.length === 0) throw Object.assign(new Error('Not found'), {status: 404})
          return customers[0] as T
        }
        return {items: customers} as T
      },
    })
    const lost = {method: 'POST', url: 'http://x/v1/customers/', reason: 'connection error ECONNRESET'}
    const lookup = settlementOf('POST', '/customers/')
    const made = {id: 'c1', email: 'A@x.io', external_id: 'u1'}
    expect(await settleLost(lookup, reader([made]), {email: 'a@x.io', external_id: 'u1'}, lost)).toEqual({found: made})
    expect(await settleLost(lookup, reader([]), {email: 'a@x.io', external_id: 'u1'}, lost)).toEqual({resend: true})
    expect(await settleLost(lookup, reader([made]), {email: 'a@x.io'}, lost)).toEqual({found: made})
    expect(asked).toEqual(['/customers/external/u1 {}', '/customers/external/u1 {}', '/customers/ {"email":"a@x.io","limit":10}'])
    const refund = settlementOf('POST', '/refunds/')
    const mine = {id: 'r2', metadata: {[MARKER_KEY]: 'm-2'}}
    const refunds: Reader = {get: async <T>() => ({items: [{id: 'r1', metadata: {}}, mine]}) as T}
    expect(await settleLost(refund, refunds, {order_id: 'o1', metadata: {[MARKER_KEY]: 'm-2'}}, lost)).toEqual({found: mine})
    expect(await settleLost(refund, refunds, {order_id: 'o1', metadata: {[MARKER_KEY]: 'm-3'}}, lost)).toEqual({resend: true})
  })

  it('an unknown outcome is an error naming the command that shows the truth, never a second send', async () => {
    const lost = {method: 'POST', url: 'http://x/v1/products/?a=1', reason: 'HTTP 502'}
    const error = await settleLost(settlementOf('POST', '/products/'), {get: async () => ({}) as never}, {}, lost).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect((error as OutcomeUnknownError).message).toBe(
      'the answer to POST http://x/v1/products/ was lost (HTTP 502): it may or may not have been done, so it was not sent again',
    )
    expect((error as OutcomeUnknownError).truth).toBe('till products list --query NAME')
  })

  it('the command that shows the truth names what the request named, not a placeholder', async () => {
    const truthOf = async (method: string, url: string, body: unknown) => {
      const error = await settleLost(settlementOf(method, new URL(url).pathname), {get: async () => ({}) as never}, body, {
        method,
        url,
        reason: 'HTTP 502',
      }).catch((e: unknown) => e)
      expect(error, url).toBeInstanceOf(OutcomeUnknownError)
      return (error as OutcomeUnknownError).truth
    }
    expect(await truthOf('POST', 'http://x/v1/orders/', {customer_id: 'c-1', product_id: 'p-1'})).toBe('till orders list --status draft --customer c-1')
    expect(await truthOf('POST', 'http://x/v1/subscriptions/', {customer_id: 'c-2', product_id: 'p-1'})).toBe('till subscriptions list --customer c-2')
    expect(await truthOf('POST', 'http://x/v1/customer-seats', {subscription_id: 's-1', email: 'a@x.io'})).toBe('till seats list --subscription s-1')
    expect(await truthOf('POST', 'http://x/v1/customer-seats', {order_id: 'o-1', email: 'a@x.io'})).toBe('till seats list --order o-1')
    expect(await truthOf('POST', 'http://x/v1/customer-portal/license-keys/k-1/rotate', {})).toBe('till portal license-keys get k-1')
    expect(await truthOf('POST', 'http://x/v1/customer-portal/orders/o-2/confirm-payment', {})).toBe('till portal orders payment-status o-2')
  })

  it("a finalize whose answer was lost is settled by the order's status: paid is done, a draft is sent again, pending stays unknown", async () => {
    const lost = {method: 'POST', url: 'http://x/v1/orders/o-7/finalize', reason: 'HTTP 502'}
    const asked: string[] = []
    const orderIs = (status: string): Reader => ({
      get: async <T>(path: string) => {
        asked.push(path)
        return {id: 'o-7', status} as T
      },
    })
    const finalize = settlementOf('POST', '/v1/orders/o-7/finalize')
    expect(await settleLost(finalize, orderIs('paid'), {}, lost)).toEqual({found: {id: 'o-7', status: 'paid'}})
    expect(await settleLost(finalize, orderIs('draft'), {}, lost)).toEqual({resend: true})
    const pending = await settleLost(finalize, orderIs('pending'), {}, lost).catch((e: unknown) => e)
    expect(pending).toBeInstanceOf(OutcomeUnknownError)
    expect((pending as OutcomeUnknownError).truth).toBe('till orders get o-7')
    expect(asked).toEqual(['/orders/o-7', '/orders/o-7', '/orders/o-7'])
  })
})
