// A small cross-process lock: an exclusive lock file holding the owner's pid.
// A lock whose owner is gone (killed mid-write) or that is older than any holder needs is taken over.
import {closeSync, openSync, renameSync, statSync, unlinkSync, writeSync} from 'node:fs'

import {readOwnText} from './own-file.js'

const STALE_MS = 10_000
/** A lock file holds a pid: one longer is not a lock till made (a FIFO or a device is not read at all). */
const LOCK_MAX_BYTES = 64

function tryLock(path: string): boolean {
  try {
    const fd = openSync(path, 'wx', 0o600)
    writeSync(fd, String(process.pid))
    closeSync(fd)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    if (isStale(path)) takeOver(path)
    return false
  }
}

/**
 * Moves a stale lock aside atomically before deleting it: when two processes find the same stale lock,
 * only one rename succeeds, so neither deletes a lock the other has just taken.
 */
function takeOver(path: string): void {
  const aside = `${path}.stale.${process.pid}.${Date.now()}`
  try {
    renameSync(path, aside)
  } catch {
    return
  }
  removeFile(aside)
}

/** Deletes a file if it is there (unlink: rmSync loads Node's recursive remover, which a lock never needs). */
function removeFile(path: string): void {
  try {
    unlinkSync(path)
  } catch {
    // already gone
  }
}

/** Removes the lock only if it is still ours. */
function release(path: string): void {
  try {
    if (readOwnText(path, LOCK_MAX_BYTES) === String(process.pid)) removeFile(path)
  } catch {
    // already gone
  }
}

function isStale(path: string): boolean {
  try {
    const pid = Number(readOwnText(path, LOCK_MAX_BYTES))
    const age = Date.now() - statSync(path).mtimeMs
    if (age > STALE_MS) return true
    // An empty file is a lock being created right now.
    if (!Number.isInteger(pid) || pid <= 0) return age > 1000
    if (pid === process.pid) return false
    try {
      process.kill(pid, 0)
      return false
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ESRCH'
    }
  } catch {
    return false
  }
}

function timedOut(path: string, waitMs: number): Error {
  return new Error(`timed out after ${waitMs} ms waiting for the lock ${path}; if no other till process is running, delete that file`)
}

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)

/** Runs `fn` holding the lock, blocking the thread while waiting (for short critical sections). */
export function withLockSync<T>(path: string, fn: () => T, waitMs = 30_000): T {
  const started = Date.now()
  while (!tryLock(path)) {
    if (Date.now() - started > waitMs) throw timedOut(path, waitMs)
    sleepSync(2)
  }
  try {
    return fn()
  } finally {
    release(path)
  }
}

/** Runs `fn` holding the lock, waiting without blocking the event loop. */
export async function withLock<T>(path: string, fn: () => T | Promise<T>, waitMs = 30_000): Promise<T> {
  const started = Date.now()
  while (!tryLock(path)) {
    if (Date.now() - started > waitMs) throw timedOut(path, waitMs)
    await new Promise((r) => setTimeout(r, 2))
  }
  try {
    return await fn()
  } finally {
    release(path)
  }
}

/** A lock held for a whole run (see `holdLock`); `release` is idempotent. */
export interface HeldLock {
  release(): void
}

const held = new Set<string>()
let exitHooked = false

/**
 * Takes the lock at `path` for as long as a run lasts, without waiting: a lock whose owner is alive is
 * never taken over, however old (a long run holds it for hours); one whose owner has gone is. Returns the
 * lock, or the pid of the process holding it (null when it cannot be read). Released at exit at the latest.
 */
export function holdLock(path: string): HeldLock | {heldBy: number | null} {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600)
      writeSync(fd, String(process.pid))
      closeSync(fd)
      held.add(path)
      if (!exitHooked) {
        exitHooked = true
        process.on('exit', () => {
          for (const p of held) release(p)
        })
      }
      return {
        release: () => {
          if (held.delete(path)) release(path)
        },
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const holder = lockHolder(path)
    if (holder.alive) return {heldBy: holder.pid}
    takeOver(path)
  }
  return {heldBy: lockHolder(path).pid}
}

/** Who holds the lock at `path`, and whether that process still runs. */
function lockHolder(path: string): {pid: number | null; alive: boolean} {
  let text: string
  let age: number
  try {
    text = readOwnText(path, LOCK_MAX_BYTES)
    age = Date.now() - statSync(path).mtimeMs
  } catch {
    return {pid: null, alive: false}
  }
  const pid = Number(text)
  // An empty file is a lock being created right now.
  if (!Number.isInteger(pid) || pid <= 0) return {pid: null, alive: age <= 1000}
  if (pid === process.pid) return {pid, alive: held.has(path)}
  try {
    process.kill(pid, 0)
    return {pid, alive: true}
  } catch (error) {
    return {pid, alive: (error as NodeJS.ErrnoException).code !== 'ESRCH'}
  }
}

/**
 * Takes the lock at `path` for a run as `holdLock` does, waiting up to `waitMs` for the process holding it
 * to finish (`onWait` is told its pid once). Returns the lock, or who still holds it.
 */
export async function waitForLock(path: string, waitMs: number, onWait: (heldBy: number | null) => void): Promise<HeldLock | {heldBy: number | null}> {
  const started = Date.now()
  let told = false
  for (;;) {
    const lock = holdLock(path)
    if ('release' in lock || Date.now() - started >= waitMs) return lock
    if (!told) onWait(lock.heldBy)
    told = true
    await new Promise((r) => setTimeout(r, 100))
  }
}
