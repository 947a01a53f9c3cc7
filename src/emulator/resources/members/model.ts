// Members of a customer (server/polar/member): the people of a team customer, each with a role, and the
// one owner of an individual customer. Stored records and their collection in the store.
import type {EnvData} from '../../core/model.js'

declare module '../../core/model.js' {
  interface EnvData {
    members: MemberRecord[]
  }
}

/** This resource's part of a new (or older, saved before it existed) store. */
export const collections = (): Partial<EnvData> => ({members: [] as MemberRecord[]})

export const MEMBER_ROLES = ['owner', 'billing_manager', 'member'] as const
export type MemberRole = (typeof MEMBER_ROLES)[number]

export interface MemberRecord {
  id: string
  created_at: string
  modified_at: string | null
  customer_id: string
  email: string
  name: string | null
  /** Unique among the customer's live members when set. */
  external_id: string | null
  role: MemberRole
  /** Soft delete: a deleted member is in no list and no lookup. */
  deleted_at: string | null
}
