// The time of the environment a command talks to. An emulator keeps a clock of its own, which `till
// emulator clock advance` moves ahead (GET /_emulator/clock); every relative time a table or a detail view
// shows, and every date word a flag takes (`--since yesterday`, `7d`), counts from that clock on an emulator
// profile, and from this machine's elsewhere. It is read once per command, when first needed, and kept as
// its distance from this machine's time.
import type {ApiClient} from '../client/client.js'
import {isLoopbackHost} from '../client/origin.js'

/**
 * Whether a profile talks to an emulator: the local profile, or any profile on a loopback address, whatever
 * its environment is called (`till auth login --environment sandbox --url http://127.0.0.1:4011/v1` makes one
 * for the emulator's sandbox). The service is never on loopback.
 */
export function isEmulated(profile: {environment: string; baseUrl: string}): boolean {
  if (profile.environment === 'local') return true
  try {
    return isLoopbackHost(new URL(profile.baseUrl).hostname)
  } catch {
    return false
  }
}

/** The control URL of `path` beside the profile's API base (`http://127.0.0.1:4010/v1` -> `.../_emulator/path`). */
export function controlUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/_emulator${path}`
}

/** The emulator's time, or this machine's when its control route does not answer. */
export async function emulatorNow(client: ApiClient): Promise<number> {
  try {
    const at = Date.parse((await client.get<{now?: string}>(controlUrl(client.baseUrl, '/clock'))).now ?? '')
    return Number.isNaN(at) ? Date.now() : at
  } catch {
    return Date.now()
  }
}

export interface EnvironmentClock {
  /** The environment's time now (for date flags: the command then talks to the environment). */
  now(): Promise<number>
  /**
   * A clock that reads the environment's time without waiting, for the output writers: this machine's
   * unless the command talks to the environment (a command that sends nothing never reaches an emulator for it).
   */
  reader(): Promise<() => number>
}

interface ClockHost {
  readonly profile: {environment: string; baseUrl: string}
  client(): Promise<ApiClient>
  /** Set once the command asked for its client. */
  readonly clientPromise?: Promise<ApiClient>
}

/** The clock of one command: its profile and client are asked for only when the time is first needed. */
export function environmentClock(command: ClockHost): EnvironmentClock {
  let offset: Promise<number> | undefined
  const ahead = () => {
    offset ??= isEmulated(command.profile)
      ? command
          .client()
          .then(emulatorNow, () => Date.now())
          .then((at) => at - Date.now())
      : Promise.resolve(0)
    return offset
  }
  return {
    now: async () => Date.now() + (await ahead()),
    reader: async () => {
      if (!command.clientPromise && !offset) return Date.now
      const ms = await ahead()
      return () => Date.now() + ms
    },
  }
}
