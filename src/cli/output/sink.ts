// Writing to an output stream with backpressure, and noticing when its reader has gone (`| head -1`).
const GONE = new Set(['EPIPE', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END', 'ECONNRESET'])

const readerGone = (error: unknown) => GONE.has((error as {code?: string} | null)?.code ?? '')

/**
 * One per stream, shared by every writer on it. It keeps an 'error' listener on the stream for good,
 * so a late EPIPE (stdout reports it asynchronously) never crashes the process.
 */
export class Sink {
  /** Set while a write waits for 'drain'; writers wait on it before buffering more. */
  draining: Promise<void> | undefined
  private gone = false
  private failure: Error | undefined
  private readonly wake = new Set<() => void>()

  constructor(private readonly out: NodeJS.WritableStream) {
    out.on('error', (error: Error) => {
      if (readerGone(error)) this.gone = true
      else this.failure ??= error
      this.wakeAll()
    })
    out.on('close', () => {
      this.gone = true
      this.wakeAll()
    })
  }

  /** The reader has gone: further output is dropped, and the command should stop and exit 0. */
  get closed(): boolean {
    const s = this.out as NodeJS.WritableStream & {destroyed?: boolean; writableEnded?: boolean}
    if (s.destroyed || s.writableEnded) this.gone = true
    return this.gone
  }

  /** Write `chunk`; resolves once the stream can take more. Rejects only on errors other than a gone reader. */
  async write(chunk: string): Promise<void> {
    while (this.draining) await this.draining
    this.rethrow()
    if (this.closed || chunk === '') return
    let accepted: boolean
    try {
      accepted = this.out.write(chunk)
    } catch (error) {
      if (!readerGone(error)) throw error
      this.gone = true
      return
    }
    if (!accepted && !this.closed) {
      this.draining = this.waitForDrain().finally(() => (this.draining = undefined))
      await this.draining
    }
    this.rethrow()
  }

  /** Write `pieces` in writes of about `size` characters each (gathered), waiting for the stream as it fills. */
  async writeAll(pieces: Iterable<string>, size?: number): Promise<void> {
    for (const chunk of gathered(pieces, size)) await this.write(chunk)
  }

  /** Throw the stream's error, if it failed for another reason than its reader going away. */
  rethrow(): void {
    if (this.failure) throw this.failure
  }

  private waitForDrain(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.out.removeListener('drain', done)
        this.wake.delete(done)
        resolve()
      }
      this.out.on('drain', done)
      this.wake.add(done)
    })
  }

  private wakeAll(): void {
    for (const done of [...this.wake]) done()
  }
}

/** `pieces` joined into chunks of at least `size` characters (the last one shorter), none empty. */
export function* gathered(pieces: Iterable<string>, size = 64 * 1024): Generator<string> {
  let pending = ''
  for (const piece of pieces) {
    pending += piece
    if (pending.length < size) continue
    yield pending
    pending = ''
  }
  if (pending !== '') yield pending
}

const sinks = new WeakMap<NodeJS.WritableStream, Sink>()

/** The one Sink of `out`. */
export function sinkFor(out: NodeJS.WritableStream): Sink {
  let sink = sinks.get(out)
  if (!sink) {
    sink = new Sink(out)
    sinks.set(out, sink)
  }
  return sink
}

/** True once `out`'s reader has gone (EPIPE, closed, destroyed): stop producing output and exit 0. */
export const isOutputClosed = (out: NodeJS.WritableStream): boolean => sinks.get(out)?.closed ?? false

/**
 * Resolves once what was written to `out` has been handed to the system. Writes to a pipe are asynchronous:
 * a reader slower than the command (a loaded machine, `| less`) leaves the tail in the stream's buffer, and
 * oclif ends an exit other than 0 with process.exit, which drops it (most of a long output, for a reader
 * that starts a second late). A reader that has gone, or a stream that fails, ends the wait.
 */
export function flushed(out: NodeJS.WritableStream & {writableLength?: number; destroyed?: boolean}): Promise<void> {
  if (!out.writableLength || out.destroyed) return Promise.resolve()
  return new Promise((done) => {
    const end = () => {
      for (const event of ['drain', 'error', 'close']) out.off(event, end)
      done()
    }
    for (const event of ['drain', 'error', 'close']) out.once(event, end)
  })
}
