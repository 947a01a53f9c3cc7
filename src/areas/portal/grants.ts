// The body of a portal benefit grant's update: the grant's benefit type, and the properties that type takes.
import type {CustomerBenefitGrant, RequestBody} from '../../client/wire/index.js'
import {usageError} from '../../client/till-error.js'

type GrantUpdate = RequestBody<'customer_portal:benefit-grants:update'>

export interface GrantChange {
  accountId?: string
  disconnect?: boolean
  invitedEmail?: string
}

/** What to send for `change` on `grant`, and what it does in words; a usage error when the type takes no such change. */
export function grantUpdateBody(grant: CustomerBenefitGrant, change: GrantChange): {body: GrantUpdate; summary: string} {
  const type = grant.benefit.type
  if (change.invitedEmail !== undefined) {
    if (type !== 'slack_shared_channel') throw usageError(`--invited-email is for Slack shared channel grants; this grant's benefit is ${type}`)
    return {body: {benefit_type: type, properties: {invited_email: change.invitedEmail}} as GrantUpdate, summary: `invite ${change.invitedEmail}`}
  }
  if (type !== 'discord' && type !== 'github_repository') {
    throw usageError(`--account-id and --disconnect are for Discord and GitHub grants; this grant's benefit is ${type}`)
  }
  const accountId = change.disconnect ? null : (change.accountId ?? null)
  const summary = accountId === null ? `disconnect the ${type === 'discord' ? 'Discord' : 'GitHub'} account` : `use account ${accountId}`
  return {body: {benefit_type: type, properties: {account_id: accountId}} as GrantUpdate, summary}
}
