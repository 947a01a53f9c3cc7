// The emulator's control surface (outside /v1): actions no API call can cause. Only the local emulator has it.
import type {ApiClient} from '../../client/client.js'
import {usageError} from '../../client/till-error.js'

/** The control URL of `path` beside the profile's API base (`http://127.0.0.1:4010/v1` -> `.../_emulator/path`). */
export function controlUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/_emulator${path}`
}

export function requireLocal(environment: string, profile: string): void {
  if (environment !== 'local') {
    throw usageError(
      `profile "${profile}" is ${environment}: only the local emulator has a control surface`,
      'use the local profile (--profile local), with the emulator running: till emulator start',
    )
  }
}

export const controlPost = <T>(client: ApiClient, path: string, body: object = {}, deadlineMs?: number) =>
  client.post<T>(controlUrl(client.baseUrl, path), body, deadlineMs === undefined ? {} : {deadlineMs})

/**
 * The time of the environment a local profile talks to: the emulator's clock, which `till emulator clock
 * advance` moves ahead (GET /_emulator/clock), so that `--last 12m` means the emulator's last 12 months.
 * This machine's time for any other profile, or when the control route does not answer.
 */
export async function environmentNow(client: ApiClient, environment: string): Promise<number> {
  if (environment !== 'local') return Date.now()
  try {
    const at = Date.parse((await client.get<{now?: string}>(controlUrl(client.baseUrl, '/clock'))).now ?? '')
    return Number.isNaN(at) ? Date.now() : at
  } catch {
    return Date.now()
  }
}

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
