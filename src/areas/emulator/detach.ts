// `till emulator start --detach`: the same command started again in the background, without --detach, its
// output in emulator.log of the data folder; this one returns once it answers (its running.json names it)
// and prints its URLs, or fails with the end of the log when it exits first.
import {spawn} from 'node:child_process'
import {closeSync, mkdirSync, openSync, readFileSync} from 'node:fs'
import {join} from 'node:path'

import {ExitCode, TillError} from '../../client/till-error.js'
import {readRunning, type Running} from './running.js'

const WAIT_MS = 60_000

/** `argv`: the command's arguments, naming the data folder. */
export async function startDetached(argv: string[], dataDir: string, entry: string): Promise<{running: Running; log: string}> {
  const log = join(dataDir, 'emulator.log')
  mkdirSync(dataDir, {recursive: true, mode: 0o700})
  const out = openSync(log, 'a', 0o600)
  const args = argv.filter((a) => a !== '--detach')
  const child = spawn(process.execPath, [entry, 'emulator', 'start', ...args], {detached: true, stdio: ['ignore', out, out]})
  closeSync(out)
  let exited: number | null | undefined
  child.once('exit', (code) => (exited = code))
  const deadline = Date.now() + WAIT_MS
  for (;;) {
    const running = readRunning(dataDir)
    if (running && running.pid === child.pid) {
      child.unref()
      return {running, log}
    }
    const tail = () => readFileSync(log, 'utf8').trimEnd().split('\n').slice(-3).join(' / ')
    if (exited !== undefined) throw new TillError(`the emulator exited before it answered (exit ${exited}): ${tail()}`, ExitCode.error, `its log: ${log}`)
    if (Date.now() > deadline) {
      child.kill('SIGTERM')
      throw new TillError(`the emulator did not answer within ${WAIT_MS / 1000} s`, ExitCode.error, `its log: ${log}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
