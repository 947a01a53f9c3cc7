// The OS keyring (macOS Keychain, Windows Credential Manager, the Secret Service on Linux) through
// @napi-rs/keyring, each call in a child process with a deadline. The binding's calls block the thread they
// run on (its constructor connects to D-Bus), and a keyring may never answer (an unlock prompt nobody sees,
// a bus that takes the connection and says nothing): a worker thread stuck in native code keeps the process
// from exiting, a child process is killed. The secret goes to the child on stdin and comes back on stdout,
// never in its arguments or environment. Nothing here is loaded by a command that reads no stored token.
import {existsSync} from 'node:fs'
import {createRequire} from 'node:module'
import {join} from 'node:path'

/** The keyring entries' service; the account is the profile's (see secrets.ts). */
export const KEYRING_SERVICE = 'till'

/**
 * Longest wait for one keyring exchange (a child's start included: about 50 ms on an idle machine, over a
 * second on a busy one); after it the keyring counts as not answering. gh waits 3 s for its own.
 */
export const KEYRING_DEADLINE_MS = 5000

export type KeyringStep = {op: 'get'; account: string} | {op: 'set'; account: string; secret: string} | {op: 'delete'; account: string}

/** Each step's value (get: the secret or null; set: true; delete: whether there was one), or why the keyring did not answer. */
export type KeyringAnswer = {ok: true; values: Array<string | boolean | null>} | {ok: false; why: string}

// The child: reads {binding, service, steps} from stdin, runs the steps in order on the Secret Service (pinned
// on Linux: the binding would otherwise fall back to the kernel's keyring, which a reboot empties), and
// writes {ok, values} or {ok: false, why} to stdout.
const CHILD = `
const chunks = []
process.stdin.on('data', (c) => chunks.push(c)).on('end', () => {
  let answer
  try {
    const {binding, service, steps} = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    const {Entry} = require(binding)
    const values = []
    for (const step of steps) {
      const entry = new Entry(service, step.account, {linux: {store: 'secret-service'}})
      if (step.op === 'get') values.push(entry.getPassword() ?? null)
      else if (step.op === 'set') values.push((entry.setPassword(step.secret), true))
      else values.push(entry.deletePassword())
    }
    answer = {ok: true, values}
  } catch (error) {
    answer = {ok: false, why: String((error && error.message) || error)}
  }
  process.stdout.write(JSON.stringify(answer))
})
`

/**
 * Why no keyring can answer here, known without asking one: on Linux and the BSDs the Secret Service is
 * reached over the D-Bus session bus, and a process with no session bus (a container, CI, SSH without a
 * desktop session) has none.
 */
export function keyringAbsent(env: NodeJS.ProcessEnv): string | undefined {
  if (process.platform === 'darwin' || process.platform === 'win32') return undefined
  if (env.DBUS_SESSION_BUS_ADDRESS) return undefined
  if (env.XDG_RUNTIME_DIR && existsSync(join(env.XDG_RUNTIME_DIR, 'bus'))) return undefined
  return 'no D-Bus session for the Secret Service (DBUS_SESSION_BUS_ADDRESS is not set)'
}

/** The first line of what the binding said, without control characters, for a one-line message. */
const oneLine = (text: string) => (text.split('\n')[0] ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').trim()

/** Runs the steps in one child process; never throws and never waits past the deadline. */
export function keyring(steps: KeyringStep[], deadlineMs = KEYRING_DEADLINE_MS): Promise<KeyringAnswer> {
  return startKeyring(steps, deadlineMs, true).answer
}

/** A keyring exchange under way: its answer, and `hold`, which keeps the process alive until it comes. */
export interface KeyringCall {
  answer: Promise<KeyringAnswer>
  hold(): void
}

/**
 * As keyring; `held` false starts it without keeping the process alive for it (a read asked for ahead of
 * need, keyring-prefetch.ts), until `hold` is called.
 */
export function startKeyring(steps: KeyringStep[], deadlineMs = KEYRING_DEADLINE_MS, held = true): KeyringCall {
  const absent = keyringAbsent(process.env)
  if (absent) return settled({ok: false, why: absent})
  let binding: string
  try {
    binding = createRequire(import.meta.url).resolve('@napi-rs/keyring')
  } catch {
    return settled({ok: false, why: 'the keyring binding (@napi-rs/keyring) is not installed'})
  }
  let out = ''
  let done = false
  let finish: (answer: KeyringAnswer) => void = () => {}
  const answer = new Promise<KeyringAnswer>((resolve) => {
    finish = (a) => {
      if (done) return
      done = true
      clearTimeout(timer)
      resolve(a.ok ? a : {ok: false, why: oneLine(a.why) || 'it failed without saying why'})
    }
  })
  // loaded here, not with the module: bin/run.js loads this module on every start (keyring-prefetch.ts)
  const {spawn} = process.getBuiltinModule('node:child_process')
  const child = spawn(process.execPath, ['-e', CHILD], {stdio: ['pipe', 'pipe', 'ignore'], windowsHide: true})
  const timer = setTimeout(() => {
    child.kill('SIGKILL')
    child.stdout?.destroy()
    child.unref()
    finish({ok: false, why: `no answer within ${deadlineMs / 1000}s (locked, or waiting at an unlock prompt?)`})
  }, deadlineMs)
  child.stdout?.setEncoding('utf8').on('data', (data: string) => {
    out += data
  })
  child.once('error', (error) => finish({ok: false, why: `its helper process could not start: ${error.message}`}))
  child.once('close', () => {
    try {
      finish(JSON.parse(out) as KeyringAnswer)
    } catch {
      finish({ok: false, why: 'its helper process ended without answering'})
    }
  })
  child.stdin?.on('error', () => {}) // a child that died at once: its close says so
  child.stdin?.end(JSON.stringify({binding, service: KEYRING_SERVICE, steps}))
  // a child still waiting when this process ends (a read ahead not taken, an exit on a signal) is stopped
  // with it, not left waiting on a keyring that may never answer
  const stop = () => child.kill('SIGKILL')
  process.once('exit', stop)
  child.once('close', () => process.off('exit', stop))
  const handles = [child, timer, child.stdout, child.stdin] as Array<{ref?(): unknown; unref?(): unknown} | null>
  if (!held) for (const h of handles) h?.unref?.()
  return {answer, hold: () => handles.forEach((h) => h?.ref?.())}
}

const settled = (answer: KeyringAnswer): KeyringCall => ({answer: Promise.resolve(answer), hold: () => {}})
