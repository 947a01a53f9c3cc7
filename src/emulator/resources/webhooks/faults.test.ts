import {describe, expect, it} from 'vitest'

import {seededRandom} from '../../core/ids.js'
import {NO_FAULTS, parseWebhookFaults, planFaults} from './faults.js'

describe('webhook faults', () => {
  it('reads the flag form: fractions and a delay, the rest 0', () => {
    expect(parseWebhookFaults('duplicate=0.2,reorder=0.1,delay=2s,fail-first=0.3,drop=0.05')).toEqual({
      duplicate: 0.2,
      reorder: 0.1,
      delayMs: 2000,
      failFirst: 0.3,
      drop: 0.05,
    })
    expect(parseWebhookFaults('drop=1')).toEqual({...NO_FAULTS, drop: 1})
  })

  it('refuses a fault it does not know, a rate outside 0-1 and a delay that is not a duration', () => {
    expect(() => parseWebhookFaults('lose=0.1')).toThrow(/"lose=0.1" is not a fault/)
    expect(() => parseWebhookFaults('duplicate=2')).toThrow(/duplicate must be a number from 0 to 1/)
    expect(() => parseWebhookFaults('delay=soon')).toThrow(/not a duration/)
  })

  it('the same seed draws the same plans; a dropped event has no other fault', () => {
    const faults = parseWebhookFaults('duplicate=0.5,reorder=0.5,fail-first=0.5,drop=0.3,delay=10ms')
    const plans = (seed: number) => {
      const random = seededRandom(seed)
      return Array.from({length: 50}, () => planFaults(faults, random))
    }
    expect(plans(3)).toEqual(plans(3))
    expect(plans(4)).not.toEqual(plans(3))
    for (const p of plans(3).filter((p) => p.drop)) expect(p).toEqual({drop: true, failFirst: false, duplicate: false, reorder: false, delayMs: 0})
  })
})
