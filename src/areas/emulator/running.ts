// The emulator `till emulator start` keeps running, as its data folder knows it: a small file (running.json,
// mode 0600) with its process id and addresses, written once it answers and removed when it stops, so that
// `till emulator status` and `till emulator stop` find it from any shell.
import {mkdirSync, renameSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {readOwnText} from '../../client/own-file.js'

const FILE = 'running.json'

export interface Running {
  pid: number
  started_at: string
  data: string
  environments: Record<string, {url: string}>
}

/** Whether process `pid` is still there. */
export const stillRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export function writeRunning(dataDir: string, environments: Record<string, {url: string}>): void {
  const shown = Object.fromEntries(Object.entries(environments).map(([name, env]) => [name, {url: env.url}]))
  const running: Running = {pid: process.pid, started_at: new Date().toISOString(), data: dataDir, environments: shown}
  mkdirSync(dataDir, {recursive: true, mode: 0o700})
  const temporary = join(dataDir, `${FILE}.${process.pid}.tmp`)
  writeFileSync(temporary, JSON.stringify(running), {mode: 0o600})
  renameSync(temporary, join(dataDir, FILE))
}

/** Removes the file when it is this process's (another emulator may have started on the folder since). */
export function removeRunning(dataDir: string): void {
  if (readRunning(dataDir)?.pid === process.pid) rmSync(join(dataDir, FILE), {force: true})
}

/** The emulator running on `dataDir`, if one is: a file whose process is gone is left out (and removed). */
export function readRunning(dataDir: string): Running | undefined {
  let running: Running
  try {
    running = JSON.parse(readOwnText(join(dataDir, FILE), 64 * 1024)) as Running
  } catch {
    return undefined
  }
  if (!Number.isInteger(running?.pid) || running.pid <= 0 || typeof running.environments !== 'object') return undefined
  if (stillRunning(running.pid)) return running
  rmSync(join(dataDir, FILE), {force: true})
  return undefined
}
