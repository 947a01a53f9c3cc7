import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterEach, describe, expect, it} from 'vitest'

import {Store} from '../core/store.js'
import {createEnvData} from '../seed.js'
import {completeData} from './index.js'

const SEED = {products: 2, customers: 2, orders: 3}
const NOW = Date.parse('2026-01-15T12:00:00.000Z')

describe('resources index: collections of the store', () => {
  let dir: string | undefined
  afterEach(() => dir && rmSync(dir, {recursive: true, force: true}))

  it('adds the collections a store lacks, empty, after the keys it has (kept in their order)', () => {
    const data = completeData({schema: 1, environment: 'sandbox', version: 3, products: []})
    const keys = Object.keys(data)
    expect(keys.slice(0, 4)).toEqual(['schema', 'environment', 'version', 'products'])
    expect(data.customer_sessions).toEqual([])
    expect(data.webhook_deliveries).toEqual([])
    expect(data.invoice_counter).toBe(0)
    expect(keys.filter((k) => k === 'products')).toHaveLength(1)
  })

  it('a store saved before a resource existed loads with that resource empty and keeps its own rows', () => {
    dir = mkdtempSync(join(tmpdir(), 'till-resources-'))
    const file = join(dir, 'sandbox.json')
    const old = createEnvData('sandbox', SEED, NOW) as unknown as Record<string, unknown>
    delete old.customer_sessions
    delete old.license_key_activations
    writeFileSync(file, JSON.stringify(old))
    const store = Store.open(file, {
      create: () => {
        throw new Error('the file exists: nothing to create')
      },
      regenerate: () => {
        throw new Error('not a manifest: nothing to regenerate')
      },
      complete: completeData,
    })
    expect(store.all('customer_sessions')).toEqual([])
    expect(store.all('license_key_activations')).toEqual([])
    expect(store.all('orders')).toHaveLength(3)
    expect(store.all('customers').map((c) => c.id)).toEqual((old.customers as Array<{id: string}>).map((c) => c.id))
  })
})
