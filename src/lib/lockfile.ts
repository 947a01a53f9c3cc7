// A small cross-process lock: an exclusive lock file holding the owner's pid.
// A lock whose owner is gone (killed mid-write) or that is older than any holder needs is taken over.
import {closeSync, openSync, readFileSync, rmSync, statSync, writeSync} from 'node:fs'

const STALE_MS = 10_000

function tryLock(path: string): boolean {
  try {
    const fd = openSync(path, 'wx', 0o600)
    writeSync(fd, String(process.pid))
    closeSync(fd)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    if (isStale(path)) rmSync(path, {force: true})
    return false
  }
}

function isStale(path: string): boolean {
  try {
    const pid = Number(readFileSync(path, 'utf8'))
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
    rmSync(path, {force: true})
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
    rmSync(path, {force: true})
  }
}
