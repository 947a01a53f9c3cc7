// A real Secret Service of the tests' own: a private D-Bus session bus (dbus-daemon) and Debian's
// gnome-keyring-daemon on it, in a fresh HOME, its login keyring made and unlocked with a known password.
// Nothing is skipped when it cannot start: the tests fail naming the packages (.ci/run installs them).
import {execFileSync, spawnSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {ROOT} from './emulator.js'

const PACKAGES = 'apt-get install -y dbus-daemon dbus-bin gnome-keyring libsecret-tools'
const PASSWORD = 'till-test-keyring'
const SECRETS = 'org.freedesktop.secrets'
const LOGIN = '/org/freedesktop/secrets/collection/login'

export interface SecretService {
  /** DBUS_SESSION_BUS_ADDRESS of the private bus. */
  address: string
  /** What a till process needs to reach it (add to a sandbox's environment). */
  env: Record<string, string>
  /** The secret stored for till's entry `account` (service "till"), or null (read with secret-tool). */
  lookup(account: string): string | null
  /** Stores `secret` as till's entry `account` (service "till"), as till's keyring binding writes it. */
  store(account: string, secret: string): void
  /** Locks the login keyring: reading it then needs an unlock prompt, which nobody answers here. */
  lock(): void
  stop(): void
}

function need(tool: string): void {
  if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0)
    throw new Error(`the keyring tests need ${tool}, to run a real Secret Service: ${PACKAGES} (.ci/run installs them)`)
}

/** Waits (with a deadline) until `check` holds. */
function waitFor(check: () => boolean, what: string, deadlineMs = 15_000): void {
  const until = Date.now() + deadlineMs
  while (!check()) {
    if (Date.now() > until) throw new Error(`the test's Secret Service did not come up: ${what}`)
    spawnSync('sleep', ['0.05'])
  }
}

export function startSecretService(): SecretService {
  for (const tool of ['dbus-daemon', 'gnome-keyring-daemon', 'secret-tool', 'dbus-send']) need(tool)
  const home = mkdtempSync(join(tmpdir(), 'till-keyring-'))
  const runtime = join(home, 'run')
  mkdirSync(runtime, {mode: 0o700})
  const base = {...process.env, HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_RUNTIME_DIR: runtime, XDG_CONFIG_HOME: join(home, 'config')}
  const [address = '', busPid = ''] = execFileSync('dbus-daemon', ['--session', '--print-address=1', '--print-pid=1', '--fork'], {env: base, encoding: 'utf8'})
    .trim()
    .split('\n')
  if (!address.startsWith('unix:')) throw new Error(`dbus-daemon gave no bus address: "${address}"`)
  const env = {...base, DBUS_SESSION_BUS_ADDRESS: address}
  const dbus = (...args: string[]) => spawnSync('dbus-send', ['--session', '--print-reply', ...args], {env, encoding: 'utf8', timeout: 10_000})
  // --unlock reads the login keyring's password on stdin (without a line break) and makes the keyring with it
  const started = spawnSync('gnome-keyring-daemon', ['--unlock', '--components=secrets', '--daemonize'], {
    env,
    input: PASSWORD,
    encoding: 'utf8',
    timeout: 15_000,
  })
  if (started.status !== 0) throw new Error(`gnome-keyring-daemon did not start: ${started.stderr || started.error?.message}`)
  const owned = () =>
    /boolean true/.test(dbus('--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.NameHasOwner', `string:${SECRETS}`).stdout)
  waitFor(owned, `nothing owns ${SECRETS} on the private bus`)
  const pidOf = dbus('--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.GetConnectionUnixProcessID', `string:${SECRETS}`)
  const keyringPid = Number(/uint32 (\d+)/.exec(pidOf.stdout)?.[1])
  return {
    address,
    env: {DBUS_SESSION_BUS_ADDRESS: address, XDG_RUNTIME_DIR: runtime},
    lookup(account) {
      const r = spawnSync('secret-tool', ['lookup', 'service', 'till', 'username', account], {env, encoding: 'utf8', timeout: 10_000})
      return r.status === 0 ? r.stdout : null
    },
    store(account, secret) {
      const write = `const {Entry} = require('@napi-rs/keyring')
new Entry('till', process.argv[1], {linux: {store: 'secret-service'}}).setPassword(require('node:fs').readFileSync(0, 'utf8'))`
      const r = spawnSync(process.execPath, ['-e', write, account], {env, cwd: ROOT, input: secret, encoding: 'utf8', timeout: 10_000})
      if (r.status !== 0) throw new Error(`could not store the keyring entry ${account}: ${r.stderr || r.error?.message}`)
    },
    lock() {
      const r = dbus(`--dest=${SECRETS}`, '/org/freedesktop/secrets', 'org.freedesktop.Secret.Service.Lock', `array:objpath:${LOGIN}`)
      if (r.status !== 0) throw new Error(`could not lock the login keyring: ${r.stderr}`)
    },
    stop() {
      // only the two daemons started here, by their ids
      for (const pid of [keyringPid, Number(busPid)]) {
        if (pid > 0) {
          try {
            process.kill(pid)
          } catch {
            // already gone
          }
        }
      }
      rmSync(home, {recursive: true, force: true})
    },
  }
}
