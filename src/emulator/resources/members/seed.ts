// Seeded members: every seeded customer's owner (as the service makes one with each customer), and the
// team customer's people: its owner, a billing manager and a plain member.
import type {Random} from '../../core/ids.js'
import {uuid} from '../../core/ids.js'
import type {EnvData} from '../../core/model.js'
import {DAY, iso} from '../../core/seeding.js'
import type {MemberRecord} from './model.js'

const TEAM: Array<Pick<MemberRecord, 'email' | 'name' | 'external_id' | 'role'>> = [
  {email: 'billing@initech.example', name: 'Bill Lumbergh', external_id: 'initech_bill', role: 'owner'},
  {email: 'joanna@initech.example', name: 'Joanna Bolton', external_id: 'initech_joanna', role: 'billing_manager'},
  {email: 'peter@initech.example', name: 'Peter Gibbons', external_id: null, role: 'member'},
]

/** Called once the customers are seeded; draws from its own random stream so that no other id moves. */
export function seedMembers(data: EnvData, random: Random): void {
  for (const c of data.customers) {
    if (c.type === 'team') {
      TEAM.forEach((person, i) => {
        data.members.push({
          id: uuid(random),
          created_at: iso(Date.parse(c.created_at) + i * DAY),
          modified_at: null,
          customer_id: c.id,
          deleted_at: null,
          ...person,
        })
      })
    } else if (c.email !== null) {
      data.members.push({
        id: uuid(random),
        created_at: c.created_at,
        modified_at: null,
        customer_id: c.id,
        email: c.email,
        name: c.name,
        external_id: c.external_id,
        role: 'owner',
        deleted_at: null,
      })
    }
  }
}
