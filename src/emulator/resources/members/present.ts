// Members: stored records -> the API's wire shapes.
import type {Presented} from '../../core/present.js'
import type {MemberRecord} from './model.js'

/** Member, as the organization's API and the `member.*` webhooks give it. */
export const member = (m: MemberRecord): Presented<'Member'> => ({
  id: m.id,
  created_at: m.created_at,
  modified_at: m.modified_at,
  customer_id: m.customer_id,
  email: m.email,
  name: m.name,
  external_id: m.external_id,
  role: m.role,
})

/** CustomerPortalMember: what a team's owner or billing manager sees of a member (no external id). */
export const portalMember = (m: MemberRecord): Presented<'CustomerPortalMember'> => ({
  id: m.id,
  created_at: m.created_at,
  modified_at: m.modified_at,
  email: m.email,
  name: m.name,
  role: m.role,
})
