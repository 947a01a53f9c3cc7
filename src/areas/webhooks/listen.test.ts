import {describe, expect, it} from 'vitest'

import type {ForwardResult} from '../../client/listen.js'
import {eventLine, ListenPrinter, type StreamEvent} from './listen.js'

const AT = Date.parse('2026-11-23T03:00:00.500Z')
const event = (type: string, id = 'e1'): StreamEvent => ({
  kind: 'event',
  webhookEventId: id,
  type,
  form: 'string',
  headers: {},
  body: JSON.stringify({type, timestamp: '2026-11-23T03:00:00.000Z', data: {id: `obj-${id}`}}),
})

function printer(forward?: ForwardResult[], extra: {events?: string[]; json?: boolean} = {}) {
  const out: string[] = []
  const notes: string[] = []
  const debug: string[] = []
  const answers = [...(forward ?? [])]
  const p = new ListenPrinter({
    forwardTo: forward ? 'http://localhost:3000/hook' : undefined,
    events: extra.events ?? [],
    json: extra.json ?? false,
    out: (l) => out.push(l),
    note: (l) => notes.push(l),
    debug: (l) => debug.push(l),
    now: () => AT,
    forward: async () => answers.shift()!,
  })
  return {p, out, notes, debug}
}

describe('listen output', () => {
  it('one line per event: time to the second, type, event id, object id, forward result', () => {
    expect(eventLine(AT, event('order.paid'), {status: 200, ms: 12})).toBe(`2026-11-23T03:00:00Z  ${'order.paid'.padEnd(24)}  e1  (obj-e1)  -> 200 in 12 ms`)
    expect(eventLine(AT, event('order.paid'), {error: 'connection refused', ms: 1})).toMatch(/-> failed: connection refused$/)
  })

  it('fits a terminal: the time without its date and the type unpadded first, then the object id shortened and left out, the event id cut last; piped lines stay whole', () => {
    const uuid = (n: number) => `${String(n).repeat(8)}-aaaa-4bbb-8ccc-dddddddddddd`
    const e = {...event('subscription.updated', uuid(1)), body: JSON.stringify({data: {id: uuid(2)}})}
    const whole = eventLine(AT, e, {status: 200, ms: 12})
    expect(whole.length).toBeGreaterThan(120)
    expect(eventLine(AT, e, {status: 200, ms: 12}, 200)).toBe(whole)
    const at120 = eventLine(AT, e, {status: 200, ms: 12}, 120)
    expect(at120).toBe(`03:00:00  subscription.updated  ${uuid(1)}  (22222222…)  -> 200 in 12 ms`)
    expect(eventLine(AT, e, {status: 200, ms: 12}, 100)).toBe(at120)
    const at80 = eventLine(AT, e, {status: 200, ms: 12}, 80)
    expect(at80).toBe('03:00:00  subscription.updated  11111111…  -> 200 in 12 ms')
    expect(at80.length).toBeLessThanOrEqual(80)
  })

  it('keeps the event id whole at 80 columns whether the event is forwarded or not', () => {
    const uuid = (n: number) => `${String(n).repeat(8)}-aaaa-4bbb-8ccc-dddddddddddd`
    const e = {...event('order.paid', uuid(1)), body: JSON.stringify({data: {id: uuid(2)}})}
    const shown = eventLine(AT, e, undefined, 80)
    const forwarded = eventLine(AT, e, {status: 200, ms: 12}, 80)
    expect(shown).toBe(`03:00:00  order.paid  ${uuid(1)}  (22222222…)`)
    expect(forwarded).toBe(`03:00:00  order.paid  ${uuid(1)}  -> 200 in 12 ms`)
    for (const line of [shown, forwarded]) expect(line.length).toBeLessThanOrEqual(80)
  })

  it('says once that the local server is down and once that it is back; lines keep coming', async () => {
    const {p, out, notes} = printer([
      {error: 'connection refused', ms: 1},
      {error: 'connection refused', ms: 1},
      {status: 204, ms: 3},
    ])
    for (const id of ['a', 'b', 'c']) {
      await p.onEvent(event('customer.created', id))
      await p.settled()
    }
    expect(out).toHaveLength(3)
    expect(notes).toEqual([
      'Nothing answers at http://localhost:3000/hook (connection refused); still listening, events are shown and forwarding resumes when it is back.',
      'http://localhost:3000/hook answers again.',
    ])
  })

  it('events are forwarded in the order they came, each once the one before is answered, without holding up the stream', async () => {
    const out: string[] = []
    const answered: string[] = []
    const started: string[] = []
    const p = new ListenPrinter({
      forwardTo: 'http://localhost:3000/hook',
      events: [],
      json: false,
      out: (l) => out.push(l),
      note: () => {},
      debug: () => {},
      now: () => AT,
      forward: (_to, e) => {
        started.push(e.webhookEventId)
        return new Promise((resolve) =>
          setTimeout(
            () => {
              answered.push(e.webhookEventId)
              resolve({status: 200, ms: 5})
            },
            e.webhookEventId === 'slow' ? 200 : 1,
          ),
        )
      },
    })
    await p.onEvent(event('order.paid', 'slow'))
    await p.onEvent(event('order.paid', 'fast'))
    // the stream goes on at once; the second forward waits for the first's answer
    expect(started).toEqual(['slow'])
    await p.settled()
    expect(answered).toEqual(['slow', 'fast'])
    expect(out.map((l) => l.split(/\s+/)[2])).toEqual(['slow', 'fast'])
    // each line carries the time its event arrived
    for (const line of out) expect(line.startsWith('2026-11-23T03:00:00Z')).toBe(true)
  })

  it('one forward at a time, however long the one before waits for its answer; the stream is never held', async () => {
    const started: string[] = []
    const answer: Array<() => void> = []
    let inFlight = 0
    let most = 0
    const p = new ListenPrinter({
      forwardTo: 'http://localhost:3000/hook',
      events: [],
      json: false,
      out: () => {},
      note: () => {},
      debug: () => {},
      now: () => AT,
      forward: (_to, e) => {
        started.push(e.webhookEventId)
        most = Math.max(most, ++inFlight)
        return new Promise((resolve) => answer.push(() => resolve({status: 200, ms: 1}, inFlight--)))
      },
    })
    const ids = Array.from({length: 20}, (_, i) => `e${i}`)
    for (const id of ids) await p.onEvent(event('order.paid', id))
    expect(started).toEqual(['e0'])
    // answered one by one, each well after the others arrived: the next is sent only then
    for (let i = 0; i < ids.length; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5))
      expect(started).toEqual(ids.slice(0, i + 1))
      answer[i]!()
    }
    await p.settled()
    expect(started).toEqual(ids)
    expect(most).toBe(1)
  })

  it('--json prints the body as it came; --events skips other types', async () => {
    const {p, out, debug} = printer(undefined, {json: true, events: ['order.paid']})
    await p.onEvent(event('order.created', 'x'))
    await p.onEvent(event('order.paid', 'y'))
    expect(out).toEqual([event('order.paid', 'y').body])
    expect(debug).toEqual(['skipped order.created x (not in --events)'])
  })

  it('a reconnect message is mentioned only under --debug; a drop gets a line', () => {
    const {p, notes, debug} = printer()
    p.onState({state: 'connected', secret: 's', reconnects: 0})
    p.onState({state: 'reconnecting', reason: 'reconnect message', delayMs: 0, failures: 0})
    p.onState({state: 'connected', secret: 's', reconnects: 1})
    expect(notes).toHaveLength(2)
    expect(debug).toEqual(['the service asked to reconnect; connecting again', 'listen stream open again (reconnect 1)'])
    p.onState({state: 'reconnecting', reason: 'failed', delayMs: 2000, failures: 3, detail: 'ECONNREFUSED'})
    expect(notes[2]).toBe('The listen stream could not be opened (ECONNREFUSED); connecting again in 2 s.')
  })
})
