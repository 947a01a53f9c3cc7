// Billing periods.
import type {SubscriptionRecord} from './model.js'

/** `start` moved by `count` intervals; months and years keep the day, clamped to the month's last day. */
export function addInterval(start: number, interval: SubscriptionRecord['recurring_interval'], count: number): number {
  const d = new Date(start)
  if (interval === 'day' || interval === 'week') return start + count * (interval === 'day' ? 1 : 7) * 86_400_000
  const months = interval === 'month' ? count : 12 * count
  const target = new Date(d)
  target.setUTCDate(1)
  target.setUTCMonth(d.getUTCMonth() + months)
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate()
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay))
  return target.getTime()
}
