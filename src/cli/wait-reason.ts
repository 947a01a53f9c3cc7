// Why a command waits for its rate budget, in words: which budget, its limit, and whose requests filled it
// (the budget of a profile is shared by every till process of that profile, through its pace state file).
import {PER_IP_BUDGET, type ResolvedProfile} from './config/resolve-profile.js'

/** `budget` is the pacer's name of it (`ip`, or the profile's own); `others` the requests other processes sent. */
export function budgetWaitReason(budget: string, profile: ResolvedProfile, others: number): string {
  const rule = budget === 'ip' ? PER_IP_BUDGET : profile.rateLimit
  const per = rule.windowMs === 60_000 ? 'a minute' : rule.windowMs === 1000 ? 'a second' : `per ${rule.windowMs / 1000}s`
  const used = others > 0 ? `; other till processes of profile ${profile.name} sent ${others} of its last ${rule.limit} requests` : ''
  const what = budget === 'ip' ? 'the per-IP limit' : `the rate budget of profile ${profile.name}`
  return `${what} (${rule.limit} requests ${per})${used}`
}
