// Benefits and the grants that give them to customers: stored records -> wire shapes (server/polar/benefit/schemas.py).
import {type View, orgId, embedded} from '../../core/present.js'
import type {BenefitGrantRecord, BenefitRecord} from './model.js'
import {customer} from '../customers/present.js'
import type {Presented} from '../../core/present.js'

export function benefit(v: View, b: BenefitRecord): Presented<'Benefit'> {
  // a union by `type` whose properties the record keeps untyped: the member is checked at run time by the
  // contract mode
  return <Presented<'Benefit'>>{
    id: b.id,
    created_at: b.created_at,
    modified_at: b.modified_at,
    type: b.type,
    description: b.description,
    selectable: b.selectable,
    deletable: b.deletable,
    is_deleted: b.is_deleted,
    organization_id: orgId(v),
    metadata: b.metadata,
    visibility: b.visibility,
    visibility_configurable: true,
    properties: b.properties,
  }
}

export function benefitGrant(v: View, g: BenefitGrantRecord): Presented<'BenefitGrant'> {
  const c = v.store.get('customers', g.customer_id)
  const b = v.store.get('benefits', g.benefit_id)
  return {
    id: g.id,
    created_at: g.created_at,
    modified_at: g.modified_at,
    granted_at: g.granted_at,
    is_granted: g.granted_at !== null && g.revoked_at === null,
    revoked_at: g.revoked_at,
    is_revoked: g.revoked_at !== null,
    subscription_id: g.subscription_id,
    order_id: g.order_id,
    customer_id: g.customer_id,
    member_id: null,
    benefit_id: g.benefit_id,
    error: null,
    customer: embedded(c ? customer(v, c) : null),
    member: null,
    benefit: embedded(b ? benefit(v, b) : null),
    properties: g.properties,
  }
}
