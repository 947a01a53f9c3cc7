// The machine's slowness right now, measured once by vitest.config.ts before the workers start: a fixed
// piece of work (hashing and JSON, about 30 ms of one core on a quiet machine) timed by the wall clock,
// the median of five runs against that quiet figure. Other work on the machine (a busy CI host, the cores
// shared with another job) and a slow hour of a virtual machine both show in it. Between 1 and 10.
import {createHash} from 'node:crypto'

/** The work's wall time on a quiet 2-core machine of this project's kind, in milliseconds. */
const QUIET_MS = 30

function work(): number {
  const hash = createHash('sha256')
  const block = Buffer.alloc(1024, 7)
  let length = 0
  for (let i = 0; i < 20_000; i++) {
    hash.update(block)
    length += JSON.stringify({i, pair: [i, i * 2]}).length
  }
  hash.digest()
  return length
}

export function measureFactor(): number {
  work() // the first run compiles
  const times: number[] = []
  for (let run = 0; run < 5; run++) {
    const start = performance.now()
    work()
    times.push(performance.now() - start)
  }
  const median = times.sort((a, b) => a - b)[2]!
  return Math.min(10, Math.max(1, Math.round((median / QUIET_MS) * 10) / 10))
}
