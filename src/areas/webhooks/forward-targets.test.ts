import {describe, expect, it} from 'vitest'

import {withSecret} from './dotenv.js'
import {forwarding, targetWants} from './forward-targets.js'

const flags = (...pairs: Array<[string, string]>) => pairs.map(([flag, input]) => ({type: 'flag', flag, input}))

describe('listen targets', () => {
  it('pairs each --events with the --forward-to before it; one before them all is the shown filter', () => {
    const f = forwarding(
      flags(['events', 'order.paid,customer.created'], ['forward-to', 'http://a/'], ['forward-to', 'http://b/'], ['events', 'order.created']),
    )
    expect(f).toEqual({
      events: ['order.paid', 'customer.created'],
      targets: [
        {url: 'http://a/', events: []},
        {url: 'http://b/', events: ['order.created']},
      ],
    })
    const [a, b] = f.targets
    expect(targetWants(a!, f.events, 'order.paid')).toBe(true)
    expect(targetWants(a!, f.events, 'order.created')).toBe(false)
    expect(targetWants(b!, f.events, 'order.created')).toBe(true)
    expect(targetWants(b!, f.events, 'order.paid')).toBe(false)
  })

  it('a target with no --events anywhere gets every event', () => {
    const f = forwarding(flags(['forward-to', 'http://a/']))
    expect(targetWants(f.targets[0]!, f.events, 'refund.created')).toBe(true)
  })
})

describe('the dotenv line', () => {
  it('replaces the line (keeping export), drops repeats, adds one at the end otherwise', () => {
    expect(withSecret('A=1\nexport POLAR_WEBHOOK_SECRET=old\nB=2\nPOLAR_WEBHOOK_SECRET=older\n', 's')).toBe('A=1\nexport POLAR_WEBHOOK_SECRET=s\nB=2\n')
    expect(withSecret('A=1', 's')).toBe('A=1\nPOLAR_WEBHOOK_SECRET=s\n')
    expect(withSecret('', 's')).toBe('POLAR_WEBHOOK_SECRET=s\n')
    expect(withSecret('POLAR_WEBHOOK_SECRET_OLD=x\n', 's')).toBe('POLAR_WEBHOOK_SECRET_OLD=x\nPOLAR_WEBHOOK_SECRET=s\n')
  })
})
