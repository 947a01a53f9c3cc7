// What `till customers members ...` share: which customer (its id, or --external-id) and which member (its
// id, or with --external-id the member's external id: the API addresses a member by both ids or by both
// external ids), and the role flags.
import {Args, Flags} from '@oclif/core'

import type {CustomerRef} from '../../client/resources/customers.js'
import type {MemberRef} from '../../client/resources/members.js'
import {ApiError} from '../../client/errors.js'
import {ExitCode, TillError, usageError} from '../../client/till-error.js'

export const memberArgs = {
  customer: Args.string({description: "The customer id; with --external-id (the customer's), the member's external id alone."}),
  member: Args.string({description: 'The member id (after the customer id).'}),
}

export const customerArgs = {customer: Args.string({description: 'The customer id (left out with --external-id).'})}

export const teamExternalIdFlag = Flags.string({
  char: 'e',
  description: "Address the customer by your external id instead of its id (the member then by the member's external id).",
})

export const MEMBER_ROLES = ['owner', 'billing_manager', 'member'] as const

/** The customer of `list` and `add`: the CUSTOMER argument or --external-id, one of them. */
export function customerOf(customer: string | undefined, externalId: string | undefined): CustomerRef {
  if (customer !== undefined && externalId !== undefined) throw usageError('give either a customer id or --external-id, not both')
  if (externalId !== undefined) {
    if (externalId.trim() === '') throw usageError('--external-id is empty', 'give the id your own system gave the customer, e.g. --external-id team_00001')
    return {externalId}
  }
  if (customer === undefined) throw usageError('which customer?', 'give the customer id, or --external-id EXTERNAL_ID')
  return {id: customer}
}

/**
 * The member of `get`, `update` and `remove`: CUSTOMER MEMBER (ids), or --external-id CUSTOMER_EXTERNAL_ID
 * MEMBER_EXTERNAL_ID (the one argument then the member's external id).
 */
export function memberOf(args: {customer?: string; member?: string}, externalId: string | undefined): MemberRef {
  if (externalId !== undefined) {
    if (args.member !== undefined)
      throw usageError("with --external-id give one argument, the member's external id", 'e.g. till customers members get -e team_00001 initech_bill')
    if (externalId.trim() === '') throw usageError('--external-id is empty', 'give the id your own system gave the customer, e.g. --external-id team_00001')
    if (args.customer === undefined) throw usageError("which member? give the member's external id after --external-id CUSTOMER")
    return {customerExternalId: externalId, memberExternalId: args.customer}
  }
  if (args.customer === undefined || args.member === undefined) {
    throw usageError('give the customer id and the member id', "or --external-id CUSTOMER_EXTERNAL_ID and the member's external id")
  }
  return {customerId: args.customer, memberId: args.member}
}

/**
 * A refusal of the service's member rules (403 NotPermitted) as one line whose hint says what to do, where
 * the generic hint would blame the token's scopes.
 */
export async function withMemberHint<T>(request: Promise<T>, hint: string): Promise<T> {
  try {
    return await request
  } catch (error) {
    if (error instanceof ApiError && error.status === 403 && error.code === 'NotPermitted')
      throw new TillError(`not permitted: ${error.message}`, ExitCode.auth, hint)
    throw error
  }
}
