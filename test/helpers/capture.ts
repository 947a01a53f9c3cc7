// A writable stream that keeps what it is given, for unit tests of what till writes.
import {Writable} from 'node:stream'

export class Capture extends Writable {
  chunks: string[] = []
  override _write(chunk: Buffer, _encoding: string, done: (error?: Error | null) => void): void {
    this.chunks.push(chunk.toString())
    done()
  }
  /** Everything written so far. */
  get text(): string {
    return this.chunks.join('')
  }
}
