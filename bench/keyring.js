// A profile whose token is in a real Secret Service, for case 1's row of a keyring user: a private D-Bus
// session bus (dbus-daemon) with gnome-keyring-daemon on it, in a fresh HOME, its login keyring made and
// unlocked, and till signed in there. Undefined (the row is skipped, said on stderr) where the tools are
// missing; the test suite's Secret Service (test/helpers/keyring.ts) is made the same way.
import {execFileSync, spawnSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

const TOOLS = ['dbus-daemon', 'gnome-keyring-daemon', 'dbus-send']
const has = (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0

/** Polls `check` (a synchronous look, 50 ms apart) until it holds; false after `ms`. */
function until(check, ms) {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) return false
    spawnSync('sleep', ['0.05'])
  }
  return true
}

/**
 * Starts the Secret Service and signs `bin` in to the emulator's sandbox as profile "kr", its token in the
 * keyring. Returns the environment of its commands and a stop function, or undefined (with why).
 */
export function keyringProfile(node, bin, sandbox) {
  const missing = TOOLS.filter((tool) => !has(tool))
  if (missing.length > 0) return {why: `needs ${missing.join(', ')} (apt-get install dbus-daemon dbus-bin gnome-keyring)`}
  const home = mkdtempSync(join(tmpdir(), 'till-bench-keyring-'))
  const runtime = join(home, 'run')
  mkdirSync(runtime, {mode: 0o700})
  const base = {...process.env, HOME: home, XDG_RUNTIME_DIR: runtime, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config')}
  const [address = '', busPid = ''] = execFileSync('dbus-daemon', ['--session', '--print-address=1', '--print-pid=1', '--fork'], {env: base, encoding: 'utf8'})
    .trim()
    .split('\n')
  const bus = {...base, DBUS_SESSION_BUS_ADDRESS: address}
  spawnSync('gnome-keyring-daemon', ['--unlock', '--components=secrets', '--daemonize'], {env: bus, input: 'till-bench', timeout: 15_000})
  const dbus = (...args) =>
    spawnSync('dbus-send', ['--session', '--print-reply', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', ...args], {
      env: bus,
      encoding: 'utf8',
      timeout: 10_000,
    }).stdout ?? ''
  const owned = () => /boolean true/.test(dbus('org.freedesktop.DBus.NameHasOwner', 'string:org.freedesktop.secrets'))
  // only the two daemons started here, by their process ids
  const stop = () => {
    const keyringPid = Number(/uint32 (\d+)/.exec(dbus('org.freedesktop.DBus.GetConnectionUnixProcessID', 'string:org.freedesktop.secrets'))?.[1])
    for (const pid of [keyringPid, Number(busPid)]) if (pid > 0) spawnSync('kill', [String(pid)])
    rmSync(home, {recursive: true, force: true})
  }
  if (!address.startsWith('unix:') || !until(owned, 15_000)) {
    stop()
    return {why: 'its Secret Service did not come up'}
  }
  const env = {
    DBUS_SESSION_BUS_ADDRESS: address,
    XDG_RUNTIME_DIR: runtime,
    TILL_CONFIG_DIR: join(home, 'till'),
    TILL_DATA_DIR: join(home, 'till-data'),
  }
  const login = spawnSync(node, [bin, 'auth', 'login', '--environment', 'sandbox', '--url', sandbox.url, '--name', 'kr', '--token-stdin'], {
    env: {...process.env, ...env},
    input: `${sandbox.organization_token}\n`,
    encoding: 'utf8',
  })
  const stored = login.status === 0 ? JSON.parse(readFileSync(join(env.TILL_CONFIG_DIR, 'config.json'), 'utf8')).profiles.kr : undefined
  if (stored?.token_store !== 'keyring') {
    stop()
    return {why: `signing in did not store the token in the keyring: ${login.stderr.trim().slice(-300)}`}
  }
  return {env, stop}
}
