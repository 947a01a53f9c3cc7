// Where a profile's credential (an organization token, or a browser sign-in's access and refresh tokens)
// lives: in the OS keyring where one answers, the config file (0600) holding only the entry's name; in the
// file where none answers (said once, when it happens) or where --insecure-storage chose it. A credential
// leaves the file only once the keyring has it, written and read back; a token saved before till used the
// keyring moves there on first use, with no prompt. Customer tokens are never stored (TILL_CUSTOMER_TOKEN,
// or a session made for one command). Loaded only by commands that read or write a stored credential.
import {createHash} from 'node:crypto'
import {resolve} from 'node:path'

import type {OAuthTokens} from '../../client/oauth.js'
import {ExitCode, TillError} from '../../client/till-error.js'
import {keyring} from './keyring.js'
import {takeReadAhead} from './keyring-prefetch.js'
import {configFile, readConfig, updateConfig, type ConfigData, type ProfileRecord} from './profiles.js'

/** What the secrets need of the command's context: the config folder and a way to tell the user. */
export interface SecretsHost {
  readonly configDir: string
  note(line: string): void
  debug(line: string): void
}

export type Credential = {token: string} | {oauth: OAuthTokens}

/**
 * The keyring account of a profile: its name and a digest of its config folder's path, so that two config
 * folders' "sandbox" profiles are two entries. The file keeps the account, so a moved folder still finds it.
 */
export function keyringAccount(configDir: string, name: string): string {
  return `${name}@${createHash('sha256').update(resolve(configDir)).digest('hex').slice(0, 8)}`
}

const credentialOf = (p: ProfileRecord): Credential | undefined => (p.oauth ? {oauth: p.oauth} : p.token ? {token: p.token} : undefined)
const holds = (c: Credential): 'token' | 'oauth' => ('oauth' in c ? 'oauth' : 'token')

/** Removes every trace of a stored credential from a profile's record (the file's side only). */
export function clearCredential(p: ProfileRecord): void {
  delete p.token
  delete p.oauth
  delete p.token_store
  delete p.token_store_reason
  delete p.keyring
}

/** Writes the credential to the keyring and reads it back: undefined when the keyring has it, else why not. */
async function writeKeyring(account: string, credential: Credential): Promise<string | undefined> {
  const text = JSON.stringify(credential)
  const answer = await keyring([
    {op: 'set', account, secret: text},
    {op: 'get', account},
  ])
  if (!answer.ok) return answer.why
  return answer.values[1] === text ? undefined : 'what was read back is not what was written'
}

function fallbackNote(host: SecretsHost, name: string, why: string): void {
  host.note(`The OS keyring could not be used: ${why}; the token of profile "${name}" is kept in ${configFile(host.configDir)} (mode 0600).`)
}

export interface SaveOptions {
  /** --insecure-storage: the file, without asking the keyring. */
  insecure?: boolean
  /** A renewal: a profile kept in the file stays there (by choice, or until it signs in again). */
  renewal?: boolean
  /** What else the same write changes (environment, URL, organization, the active profile). */
  change?: (config: ConfigData) => void
}

/** Stores a profile's credential where it belongs (see the top of this file); says where. */
export async function saveCredential(host: SecretsHost, name: string, credential: Credential, o: SaveOptions = {}): Promise<'keyring' | 'file'> {
  const before = readConfig(host.configDir).profiles[name]
  const account = before?.keyring?.account ?? keyringAccount(host.configDir, name)
  const fileByChoice = o.insecure || (o.renewal && before?.token_store === 'file')
  const why = fileByChoice ? undefined : await writeKeyring(account, credential)
  const inKeyring = !fileByChoice && why === undefined
  await updateConfig(host.configDir, (c) => {
    o.change?.(c)
    const p = c.profiles[name]
    if (!p) return
    clearCredential(p)
    if (inKeyring) {
      p.token_store = 'keyring'
      p.keyring = {account, holds: holds(credential)}
    } else {
      Object.assign(p, credential)
      p.token_store = 'file'
      p.token_store_reason = o.insecure ? 'insecure-storage' : o.renewal && before?.token_store_reason ? before.token_store_reason : 'no-keyring'
    }
  })
  if (why !== undefined) fallbackNote(host, name, why)
  // A profile that was in the keyring and is now kept in the file by choice leaves no copy behind.
  if (o.insecure && before?.keyring && before.token_store === 'keyring') await forgetKeyring(host, before.keyring.account)
  return inKeyring ? 'keyring' : 'file'
}

/** Removes a keyring entry; a keyring that does not answer is a warning naming the entry. */
export async function forgetKeyring(host: SecretsHost, account: string): Promise<boolean> {
  const answer = await keyring([{op: 'delete', account}])
  if (answer.ok) return true
  host.note(`Warning: could not remove the token from the OS keyring (${answer.why}); remove its entry (service "till", account "${account}") there.`)
  return false
}

/**
 * The credential a keyring entry holds. An entry that holds none (not JSON, no token, an empty one) is
 * damaged, exit 4 naming it: never read as no token, which would let another store's token (the
 * emulator's data folder) stand in for the profile's.
 */
function parseCredential(text: string, name: string, account: string): Credential {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    data = undefined
  }
  const d = data as {token?: unknown; oauth?: {access_token?: unknown}} | undefined
  // what a token is made of is checked with the profile (resolve-profile.ts), as a file token's is
  const given = (value: unknown): value is string => typeof value === 'string' && value !== ''
  if (d && given(d.token)) return {token: d.token}
  if (d?.oauth && given(d.oauth.access_token)) return {oauth: d.oauth as OAuthTokens}
  const what = d && (d.token === '' || d.oauth?.access_token === '') ? 'holds an empty token' : 'holds no token till stored'
  throw new TillError(
    `the OS keyring's entry for profile "${name}" (service "till", account "${account}") is damaged: it ${what}`,
    ExitCode.auth,
    `sign in again: till auth login -p ${name}`,
  )
}

/**
 * Puts the profile's credential into `config` (in memory) for this run: read from the keyring, or, for a
 * token saved before till used the keyring, moved there now (the file keeps it until the keyring has it).
 * A keyring that does not answer fails a profile kept there (exit 4, the token stays where it is), and
 * leaves a file token in the file.
 */
export async function loadCredential(host: SecretsHost, config: ConfigData, name: string): Promise<void> {
  const p = config.profiles[name]
  if (!p) return
  if (p.token_store === 'keyring' && p.keyring) {
    const {account} = p.keyring
    const ahead = takeReadAhead(account)
    if (ahead) host.debug(`the keyring entry of profile "${name}" was read while till started`)
    const answer = await (ahead ?? keyring([{op: 'get', account}]))
    if (!answer.ok) {
      throw new TillError(
        `the token of profile "${name}" is in the OS keyring, which could not be used: ${answer.why}`,
        ExitCode.auth,
        'unlock the keyring (or run till in the session that has it), or set TILL_TOKEN for this run',
      )
    }
    const text = answer.values[0]
    if (typeof text !== 'string') {
      throw new TillError(
        `the token of profile "${name}" is no longer in the OS keyring (its entry, account "${account}", is gone)`,
        ExitCode.auth,
        `sign in again: till auth login -p ${name}`,
      )
    }
    Object.assign(p, parseCredential(text, name, account))
    return
  }
  const credential = p.token_store === undefined ? credentialOf(p) : undefined
  if (credential) await moveToKeyring(host, name, credential)
}

/** A file token saved before till used the keyring, into the keyring; if none answers, it stays (said once). */
async function moveToKeyring(host: SecretsHost, name: string, credential: Credential): Promise<void> {
  const account = keyringAccount(host.configDir, name)
  const why = await writeKeyring(account, credential)
  let outcome: 'moved' | 'kept' | undefined
  try {
    await updateConfig(host.configDir, (c) => {
      const q = c.profiles[name]
      // another process moved it, or changed it (a renewal), meanwhile: the file keeps what it has
      const now = q && q.token_store === undefined ? credentialOf(q) : undefined
      if (!q || !now || JSON.stringify(now) !== JSON.stringify(credential)) return
      if (why === undefined) {
        clearCredential(q)
        q.token_store = 'keyring'
        q.keyring = {account, holds: holds(credential)}
        outcome = 'moved'
      } else {
        q.token_store = 'file'
        q.token_store_reason = 'no-keyring'
        outcome = 'kept'
      }
    })
  } catch (error) {
    // the token is in the file still, and this run has it: the next run tries again
    host.debug(`could not record where the token of profile "${name}" is: ${(error as Error).message}`)
  }
  if (outcome === 'moved') host.note(`Moved the token of profile "${name}" from ${configFile(host.configDir)} into the OS keyring.`)
  if (outcome === 'kept' && why !== undefined) fallbackNote(host, name, why)
}
