// The emulator toolkit's list declarations are held to the published document by the compiler: each
// `@ts-expect-error` below is a declaration the compiler must refuse (`tsc -p tsconfig.test.json` fails
// when one compiles, i.e. when the check is lost). At run time the declarations register as usual.
// The reference brings every resource's model into the program: their collections join EnvData by declaration merging.
/// <reference path="../../src/emulator/resources/index.ts" />
import {describe, expect, it} from 'vitest'

import type {DiscountRecord} from '../../src/emulator/resources/discounts/model.js'
import {type Ctx, Router} from '../../src/emulator/core/http.js'
import {byField} from '../../src/emulator/core/list.js'
import {listRoute, notSortable, organizationScope, type SortKey} from '../../src/emulator/core/toolkit.js'

const rows = (ctx: Ctx) => ctx.store.all('discounts')
const present = (_view: unknown, d: DiscountRecord) => d.id
const sorts = {
  created_at: (d: DiscountRecord) => d.created_at,
  name: (d: DiscountRecord) => d.name,
  code: (d: DiscountRecord) => d.code,
  redemptions_count: (d: DiscountRecord) => d.redemptions_count,
  ends_at: (d: DiscountRecord) => d.ends_at,
}

describe('list declarations against the document (compile-time)', () => {
  it("takes exactly the operation's sort keys, filters and metadata, and refuses the rest", () => {
    // The document's sort keys of discounts:list, as the wire types give them.
    const keys: Array<SortKey<'discounts:list'>> = ['created_at', 'name', 'code', 'redemptions_count', 'ends_at']
    const routers: Router[] = []
    const fresh = () => routers[routers.push(new Router()) - 1]!
    listRoute(fresh(), 'discounts:list', rows, {present, filters: {organization_id: organizationScope}, sorts, defaultSort: ['-created_at']})
    listRoute(fresh(), 'discounts:list', rows, {
      present,
      filters: {organization_id: organizationScope},
      sorts: {...sorts, ends_at: notSortable('a key the emulator cannot order by is said to be one, with why')},
      defaultSort: ['name'],
    })
    listRoute(fresh(), 'discounts:list', rows, {
      present,
      filters: {organization_id: organizationScope},
      // @ts-expect-error a sort key the document does not name for this operation
      sorts: {...sorts, colour: (d: DiscountRecord) => d.name},
      defaultSort: ['-created_at'],
    })
    const {ends_at: _left, ...missing} = sorts
    listRoute(fresh(), 'discounts:list', rows, {
      present,
      filters: {organization_id: organizationScope},
      // @ts-expect-error a sort key of the document the declaration leaves out
      sorts: missing,
      defaultSort: ['-created_at'],
    })
    listRoute(fresh(), 'discounts:list', rows, {
      present,
      // @ts-expect-error a filter that is not one of the operation's query parameters
      filters: {organization_id: organizationScope, customer_id: byField('uuid', (d: DiscountRecord) => d.id)},
      sorts,
      defaultSort: ['-created_at'],
    })
    listRoute(fresh(), 'discounts:list', rows, {
      present,
      // @ts-expect-error organization_id, which the operation takes, must be scoped
      filters: {},
      sorts,
      defaultSort: ['-created_at'],
    })
    listRoute(fresh(), 'discounts:list', rows, {
      present,
      filters: {organization_id: organizationScope},
      sorts,
      // @ts-expect-error metadata[] filters on an operation that takes none
      metadata: (d: DiscountRecord) => d.metadata,
      defaultSort: ['-created_at'],
    })
    // @ts-expect-error a default order by a key that is not one of the operation's
    listRoute(fresh(), 'discounts:list', rows, {present, filters: {organization_id: organizationScope}, sorts, defaultSort: ['-colour']})
    // @ts-expect-error metadata[] filters, which customers:list takes, must be declared
    listRoute(fresh(), 'customers:list', (ctx: Ctx) => ctx.store.all('customers'), {
      present: (_view, c) => c.id,
      filters: {organization_id: organizationScope},
      sorts: {created_at: (c) => c.created_at, email: (c) => c.email, name: (c) => c.name},
      defaultSort: ['-created_at'],
    })
    expect(keys).toHaveLength(5)
    expect(routers.map((r) => r.table.map((route) => route.path).join())).toEqual([...Array(8).fill('/v1/discounts/'), '/v1/customers/'])
  })
})
