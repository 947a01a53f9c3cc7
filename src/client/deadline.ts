// The deadline of a request: from sending it to the last byte of its answer, its tries and the pauses
// between them together, so that a server trickling its answer a byte at a time (which never trips
// undici's timeouts: they measure the gaps between bytes) costs at most the deadline, never one deadline
// per try. Waits on a 429 are not counted: --max-wait bounds them.

/** One try under a request's deadline: the signal that gives it up, and whether that is why it ended. */
export interface Try {
  signal: AbortSignal
  /** Whether the deadline passed while this try was under way. */
  readonly late: boolean
  /** Ends the try, adding its time to what the request has spent. */
  end(): void
}

export class Deadline {
  private spent = 0

  constructor(
    readonly ms: number,
    // a monotonic clock that does not load perf_hooks (performance.now does, for every command)
    private readonly clock: () => number = () => Number(process.hrtime.bigint() / 1_000_000n),
  ) {}

  /** Milliseconds the request has left. */
  left(): number {
    return Math.max(0, this.ms - this.spent)
  }

  /** Starts a try, given up when the deadline passes. */
  start(): Try {
    const controller = new AbortController()
    const began = this.clock()
    const timer = setTimeout(() => controller.abort(), this.left())
    let ended = false
    return {
      signal: controller.signal,
      get late() {
        return controller.signal.aborted
      },
      end: () => {
        if (ended) return
        ended = true
        clearTimeout(timer)
        this.spent += this.clock() - began
      },
    }
  }

  /** Whether a pause of `ms` before the next try leaves time for it; if so, it is counted as spent. */
  allows(ms: number): boolean {
    if (this.left() <= ms) return false
    this.spent += ms
    return true
  }
}
