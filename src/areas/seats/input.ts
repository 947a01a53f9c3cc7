// What the seats commands share (till seats ..., till portal seats ...): the flags naming the subscription or
// order whose seats they act on, the flags naming who gets a seat, and the line that counts the seats.
import {Flags} from '@oclif/core'

import {metadataFrom} from '../../cli/input/fields.js'
import {checkUuid} from '../../client/ids.js'
import type {SeatAssign, SeatContainer, SeatsList} from '../../client/resources/seats.js'
import {usageError} from '../../client/till-error.js'

export const containerFlags = {
  subscription: Flags.string({description: 'The seat-based subscription (id) whose seats these are.', exclusive: ['order']}),
  order: Flags.string({description: 'The one-time order (id) of seats whose seats these are.', exclusive: ['subscription']}),
}

/** The subscription or order the flags name: exactly one. */
export function containerFrom(flags: {subscription?: string; order?: string}, example: string): SeatContainer {
  if (flags.subscription) return {subscriptionId: checkUuid(flags.subscription, 'subscription id')}
  if (flags.order) return {orderId: checkUuid(flags.order, 'order id')}
  throw usageError('seats belong to a subscription or an order: give --subscription or --order', `e.g. ${example}`)
}

const RECIPIENT = ['email', 'customer', 'external-customer', 'member', 'external-member'] as const

export const recipientFlags = {
  email: Flags.string({description: 'Give the seat to this e-mail (a customer with it is found, or created).', helpGroup: 'WHO'}),
  customer: Flags.string({description: 'Give the seat to this customer (id).', helpGroup: 'WHO'}),
  'external-customer': Flags.string({description: 'Give the seat to the customer with this external id.', helpGroup: 'WHO'}),
  member: Flags.string({description: "Give the seat to this member (id) of the buyer's team (organizations with the member model).", helpGroup: 'WHO'}),
  'external-member': Flags.string({
    description: "Give the seat to the member with this external id of the buyer's team (with --email: that member, made if needed).",
    helpGroup: 'WHO',
  }),
  metadata: Flags.string({char: 'm', description: 'Metadata of the seat, key=value (repeatable; at most 10 keys).', multiple: true}),
  'immediate-claim': Flags.boolean({description: 'Claim the seat at once, without an invitation: its holder gets the benefits now.'}),
}

type RecipientFlags = {[K in (typeof RECIPIENT)[number]]?: string} & {metadata?: string[]; 'immediate-claim'?: boolean}

/** The assignment the flags describe (the container's id added); the service checks the combinations too. */
export function assignBody(container: SeatContainer, flags: RecipientFlags): SeatAssign {
  const given = RECIPIENT.filter((k) => flags[k] !== undefined)
  if (given.length === 0) {
    throw usageError('say who gets the seat: --email, --customer, --external-customer, --member or --external-member', 'e.g. --email ada@example.com')
  }
  const alone = given.filter((k) => k !== 'email' && k !== 'external-member')
  if (given.length > 1 && !(given.length === 2 && given.includes('email') && given.includes('external-member'))) {
    throw usageError(
      `give one of ${given.map((k) => `--${k}`).join(', ')}`,
      alone.length > 0 ? 'one recipient per seat (only --external-member takes an --email with it)' : 'one recipient per seat',
    )
  }
  return {
    subscription_id: container.subscriptionId,
    order_id: container.orderId,
    email: flags.email,
    customer_id: flags.customer === undefined ? undefined : checkUuid(flags.customer, 'customer id'),
    external_customer_id: flags['external-customer'],
    member_id: flags.member === undefined ? undefined : checkUuid(flags.member, 'member id'),
    external_member_id: flags['external-member'],
    metadata: metadataFrom(flags.metadata),
    immediate_claim: flags['immediate-claim'] || undefined,
  }
}

/** `3 of 5 seats assigned, 2 available.` (revoked seats are listed but free). */
export function seatsLine(list: SeatsList): string {
  const assigned = list.seats.filter((s) => s.status !== 'revoked').length
  return `${assigned} of ${list.total_seats} seats assigned, ${list.available_seats} available.`
}
