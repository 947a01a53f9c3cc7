// The keyring read a command is going to make, started by bin/run.js before it loads the bundle: a keyring
// read is a child process (keyring.ts), tens of milliseconds, which otherwise starts only once the
// command asks for its token, after the bundle has loaded. Started first, it runs beside the bundle's load.
// Only a profile whose record names a keyring entry is read ahead, and only for a command that can use it;
// the answer stays in this process and is taken by the keyring read of the same entry (secrets.ts), or
// dropped: the child does not keep the process alive unless the answer is taken.
import {homedir} from 'node:os'
import {join} from 'node:path'

import {MiB, readOwnText} from '../../client/own-file.js'
import {profileArg} from '../argv.js'
import {commandWords, cacheKind} from '../compile-cache.js'
import {keyringAbsent, startKeyring, type KeyringAnswer, type KeyringCall} from './keyring.js'

/** Where a read ahead waits for its taker: on the global object, since boot.cjs and the bundle are two copies of this module. */
const SLOT = Symbol.for('till.keyring.readAhead')
type Slot = {account: string; call: KeyringCall}
const slots = globalThis as unknown as Record<symbol, Slot | undefined>

/** First words of commands that read no stored token (or only write one). */
const NO_TOKEN = new Set(['profiles', 'autocomplete'])

/** The config folder as oclif makes it for till (`~/.config/till`), unless TILL_CONFIG_DIR moves it. */
function configDir(env: NodeJS.ProcessEnv): string {
  if (env.TILL_CONFIG_DIR) return env.TILL_CONFIG_DIR
  const base = env.XDG_CONFIG_HOME || (process.platform === 'win32' && env.LOCALAPPDATA) || join(env.HOME || homedir(), '.config')
  return join(base, 'till')
}

/** The keyring entry the command line's profile keeps its token in, when it is read from there. */
export function entryToReadAhead(argv: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  if (env.TILL_TOKEN || keyringAbsent(env)) return undefined
  const kind = cacheKind(argv)
  const words = commandWords(argv)
  if (kind === 'help' || kind === 'emulator' || NO_TOKEN.has(words[0] ?? '') || (words[0] === 'auth' && words[1] === 'login')) return undefined
  try {
    // bin/run.js loads this module on every start: profiles.ts (and its limit, the same MiB) stays out of it
    const config = JSON.parse(readOwnText(join(configDir(env), 'config.json'), MiB)) as {
      active?: unknown
      profiles?: Record<string, {token_store?: unknown; keyring?: {account?: unknown}} | undefined>
    }
    const name = profileArg(argv) ?? (env.TILL_PROFILE || undefined) ?? config.active
    const record = typeof name === 'string' && config.profiles && Object.hasOwn(config.profiles, name) ? config.profiles[name] : undefined
    const account = record?.token_store === 'keyring' ? record.keyring?.account : undefined
    return typeof account === 'string' ? account : undefined
  } catch {
    // no config, or one the command will name the problem of: nothing to read ahead
    return undefined
  }
}

/** Starts reading the command line's keyring entry, if it has one (see the top of this file). */
export function readKeyringAhead(argv: readonly string[], env: NodeJS.ProcessEnv): void {
  const account = entryToReadAhead(argv, env)
  if (account !== undefined) slots[SLOT] = {account, call: startKeyring([{op: 'get', account}], undefined, false)}
}

/** The answer read ahead for `account`'s entry, once (the process now waits for it); undefined when none was. */
export function takeReadAhead(account: string): Promise<KeyringAnswer> | undefined {
  const slot = slots[SLOT]
  if (!slot || slot.account !== account) return undefined
  slots[SLOT] = undefined
  slot.call.hold()
  return slot.call.answer
}
