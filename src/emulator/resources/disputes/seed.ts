// A seeded dispute awaiting a response, on the oldest paid order with something paid.
import type {EnvData} from '../../core/model.js'
import {DAY} from '../../core/seeding.js'
import {uuid, type Random} from '../../core/ids.js'
import {newDispute} from './open.js'

export function seedDisputes(data: EnvData, random: Random, now: number): void {
  const order = data.orders.find((o) => o.status === 'paid' && o.subtotal_amount - o.discount_amount > 0)
  if (order) data.disputes.push(newDispute(order, now - 2 * DAY, uuid(random), 'product_not_received'))
}
