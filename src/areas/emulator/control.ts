// The emulator's control surface (outside /v1): actions no API call can cause. Only an emulator has it: the
// local profile's, or the one any profile on a loopback address talks to (isEmulated).
import type {ApiClient} from '../../client/client.js'
import {usageError} from '../../client/till-error.js'
import {controlUrl, isEmulated} from '../../cli/environment-clock.js'

export {controlUrl, isEmulated}

/** Refuses a profile of the service: only an emulator has a control surface. */
export function requireEmulator(profile: {name: string; environment: string; baseUrl: string}): void {
  if (!isEmulated(profile)) {
    throw usageError(
      `profile "${profile.name}" is the service's ${profile.environment} (${profile.baseUrl}): only an emulator has a control surface`,
      "use the local profile (--profile local), or a profile on the emulator's address (see docs/profiles.md), with till emulator start running",
    )
  }
}

export const controlPost = <T>(client: ApiClient, path: string, body: object = {}, deadlineMs?: number) =>
  client.post<T>(controlUrl(client.baseUrl, path), body, deadlineMs === undefined ? {} : {deadlineMs})

/**
 * Whether a till emulator (or the service) answers on this loopback port: it sends a Polar-Version header
 * with every answer. Not an API request: only the header of whatever `/v1/` answers is read.
 */
export async function emulatorAnswersOn(port: number, timeoutMs = 1000): Promise<boolean> {
  const {request} = await import('node:http')
  return new Promise((resolve) => {
    const req = request({host: '127.0.0.1', port, path: '/v1/', method: 'HEAD', timeout: timeoutMs}, (res) => {
      res.resume()
      resolve(res.headers['polar-version'] !== undefined)
    })
    req.once('timeout', () => req.destroy())
    req.once('error', () => resolve(false))
    req.end()
  })
}
