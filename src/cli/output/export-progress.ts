// A list written to a file or a pipe while stderr is a terminal (`till orders list --all -o jsonl > file`):
// after a second, one line on stderr, redrawn in place, says how many items are written (of how many),
// and why it waits when it does (the rate budget, the API's Retry-After); at the end it gives way to a
// line saying what was written. A list that takes less than a second shows nothing.
import {fstatSync} from 'node:fs'

import {truncate} from './table.js'

/** How long a list runs before its progress is shown. */
const SHOW_AFTER_MS = 1000
const REDRAW_MS = 250

const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',')

export class ExportProgress {
  private written = 0
  private drawn = false
  private waitUntil = 0
  private why = ''
  private readonly started: number
  private readonly timer: NodeJS.Timeout

  constructor(
    private readonly stream: NodeJS.WriteStream,
    /** What the items are, plural (`orders`). */
    private readonly what: string,
    /** The list's length, once its first page said it. */
    private readonly total: () => number | undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now()
    this.timer = setInterval(() => this.draw(), REDRAW_MS)
    this.timer.unref()
  }

  /** The items, counted as they go by. */
  async *counted<T>(items: AsyncIterable<T> | Iterable<T>): AsyncGenerator<T> {
    for await (const item of items) {
      this.written++
      yield item
    }
  }

  /** A wait of `ms` (for `why`): shown on the line. Always true: the line says it. */
  waiting(ms: number, why: string): boolean {
    this.waitUntil = Math.max(this.waitUntil, this.now() + ms)
    this.why = why
    this.draw()
    return true
  }

  /** The line, as it reads now. */
  line(): string {
    const total = this.total()
    const left = Math.ceil((this.waitUntil - this.now()) / 1000)
    const wait = left > 0 ? ` (waiting ${left}s for ${this.why})` : ''
    return `Writing ${this.what}: ${thousands(this.written)}${total === undefined ? '' : ` of ${thousands(total)}`}${wait}…`
  }

  private draw(): void {
    if (this.now() - this.started < SHOW_AFTER_MS) return
    const width = (this.stream.columns || 80) - 1
    this.stream.write(`\r\x1b[2K${truncate(this.line(), width)}`)
    this.drawn = true
  }

  /** Stops redrawing; a line that was shown gives way to what was written. */
  end(interrupted = false): void {
    clearInterval(this.timer)
    if (!this.drawn) return
    const seconds = ((this.now() - this.started) / 1000).toFixed(1)
    this.stream.write(`\r\x1b[2K${interrupted ? 'Stopped after writing' : 'Wrote'} ${thousands(this.written)} ${this.what} in ${seconds}s.\n`)
  }
}

/** Whether stdout is a regular file (`> file`), not a pipe (whose reader may write to the same terminal). */
function stdoutIsFile(): boolean {
  try {
    return fstatSync(1).isFile()
  } catch {
    return false
  }
}

/** What the progress needs of the command's context: stderr, and where waits are told. */
interface Host {
  io: {stderr: NodeJS.WriteStream}
  waitShown?: (ms: number, why: string) => boolean
}

/** The progress of a list written to a file (stderr being a terminal), or undefined. */
export function exportProgress(host: Host, what: string, total: () => number | undefined) {
  if (!stdoutIsFile()) return undefined
  const progress = new ExportProgress(host.io.stderr, what, total)
  return {
    /** Runs `write` over the items counted, the waits shown on the line; ends the line either way. */
    async run<T>(items: AsyncIterable<object> | Iterable<object>, write: (counted: AsyncIterable<object>) => Promise<T>): Promise<T> {
      host.waitShown = (ms, why) => progress.waiting(ms, why)
      try {
        const result = await write(progress.counted(items))
        progress.end()
        return result
      } catch (error) {
        progress.end(true)
        throw error
      } finally {
        host.waitShown = undefined
      }
    },
  }
}
