// Temp files being written (a download's `.part` copy) are removed when the process exits before they
// are renamed into place: on an error, and on SIGINT/SIGTERM when the program exits from its handler.
import {rmSync} from 'node:fs'

const pending = new Set<string>()
let hooked = false

function removeAll(): void {
  for (const path of pending) rmSync(path, {force: true})
  pending.clear()
}

/** Marks `path` for removal at exit, until `settled` is called for it. */
export function trackTemp(path: string): void {
  pending.add(path)
  if (!hooked) {
    hooked = true
    process.on('exit', removeAll)
  }
}

/** `path` was renamed into place or removed: nothing to clean at exit. */
export function settled(path: string): void {
  pending.delete(path)
}
