// Seeded customers: names from a fixed list, billing details on two out of three.
import type {Address} from '../../core/model.js'
import {iso} from '../../core/seeding.js'
import {uuid, type Random} from '../../core/ids.js'
import type {CustomerRecord} from './model.js'

const FIRST = [
  'Ada',
  'Grace',
  'Alan',
  'Linus',
  'Margaret',
  'Ken',
  'Barbara',
  'Dennis',
  'Radia',
  'Guido',
  'Frances',
  'Edsger',
  'Hedy',
  'Tim',
  'Katherine',
  'Donald',
  'Sophie',
  'John',
  'Anita',
  'Bjarne',
]
const LAST = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Torvalds',
  'Hamilton',
  'Thompson',
  'Liskov',
  'Ritchie',
  'Perlman',
  'van Rossum',
  'Allen',
  'Dijkstra',
  'Lamarr',
  'Berners-Lee',
  'Johnson',
  'Knuth',
  'Wilson',
  'McCarthy',
  'Borg',
  'Stroustrup',
]
export const PLACES: Address[] = [
  {country: 'US', line1: '1 Market Street', line2: null, postal_code: '94105', city: 'San Francisco', state: 'US-CA'},
  {country: 'DE', line1: 'Unter den Linden 5', line2: null, postal_code: '10117', city: 'Berlin', state: null},
  {country: 'FR', line1: '12 Rue de Rivoli', line2: null, postal_code: '75004', city: 'Paris', state: null},
  {country: 'GB', line1: '221B Baker Street', line2: null, postal_code: 'NW1 6XE', city: 'London', state: null},
  {country: 'SE', line1: 'Drottninggatan 71', line2: null, postal_code: '111 36', city: 'Stockholm', state: null},
  {country: 'CA', line1: '100 Queen St W', line2: 'Suite 4', postal_code: 'M5H 2N2', city: 'Toronto', state: 'CA-ON'},
]

export function makeCustomers(random: Random, count: number, start: number, end: number): CustomerRecord[] {
  const step = (end - start) / Math.max(1, count)
  return Array.from({length: count}, (_, i) => {
    const first = FIRST[i % FIRST.length]!
    const last = LAST[Math.floor(i / FIRST.length) % LAST.length]!
    const n = Math.floor(i / (FIRST.length * LAST.length))
    const email = `${`${first}.${last}${n ? n + 1 : ''}`.toLowerCase().replace(/[^a-z0-9.]/g, '')}@example.com`
    const withBilling = i % 3 !== 2
    return {
      id: uuid(random),
      created_at: iso(start + i * step + Math.floor(random() * step * 0.5)),
      modified_at: null,
      metadata: i % 4 === 0 ? {segment: 'enterprise'} : ({} as Record<string, string>),
      external_id: i % 3 === 1 ? null : `usr_${String(i + 1).padStart(5, '0')}`,
      email,
      email_verified: true,
      type: 'individual',
      name: `${first} ${last}`,
      billing_name: withBilling ? `${first} ${last}` : null,
      billing_address: withBilling ? PLACES[i % PLACES.length]! : null,
      tax_id: null,
      locale: null,
      deleted_at: null,
    }
  })
}

/** A team customer (with an external id, no billing details yet), appended after every other seeded record. */
export function makeCustomerVariants(random: Random, start: number): CustomerRecord[] {
  return [
    {
      id: uuid(random),
      created_at: iso(start),
      modified_at: null,
      metadata: {segment: 'team'},
      external_id: 'team_00001',
      email: 'billing@initech.example',
      email_verified: true,
      type: 'team',
      name: 'Initech',
      billing_name: null,
      billing_address: null,
      tax_id: null,
      locale: null,
      deleted_at: null,
    },
  ]
}
