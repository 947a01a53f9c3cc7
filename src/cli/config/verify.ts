// Checking a token before it is saved (`auth login`, `profiles add`): one request for the token's
// organization. A refused token, or a URL that does not answer, is not saved unless the user says so.
import {ApiError, NetworkError} from '../../client/errors.js'
import {ExitCode, TillError} from '../../client/till-error.js'
import type {Context} from '../context.js'
import {DEFAULT_URLS, EMULATOR_URLS, type Environment} from './profiles.js'

export interface Organization {
  id: string
  name: string
}

export interface VerifyInput {
  baseUrl: string
  token: string
  environment: string
  /** The profile's name (its pacing state). */
  name: string
  /** Save anyway on failure: a warning instead of an error. */
  force: boolean
  /** The flag that saves anyway, for the hint. */
  forceFlag: string
}

/** The token's organization; throws (exit 4, or 6 when unreachable) when the API refuses it, unless `force`. */
export async function verifyToken(ctx: Context, v: VerifyInput): Promise<Organization | undefined> {
  const client = await ctx.newClient(v.baseUrl, v.token, v.name)
  try {
    const page = await client.get<{items: Organization[]}>('/organizations/')
    return page.items[0]
  } catch (error) {
    const why =
      error instanceof ApiError && error.status === 401
        ? `${v.environment} does not accept this token (is it a token of the other environment, expired or revoked?)`
        : error instanceof NetworkError
          ? `cannot reach ${v.baseUrl}: ${error.message}`
          : (error as Error).message
    if (v.force) {
      ctx.note(`Warning: ${why}; saving it anyway (${v.forceFlag}).`)
      return undefined
    }
    // the service's own URL, offline or with a token of the emulator: the emulator's environment is one --url away
    const emulator = EMULATOR_URLS[v.environment]
    const local =
      emulator && v.baseUrl === DEFAULT_URLS[v.environment as Environment]
        ? `; a token \`till emulator start\` printed is the emulator's: add --url ${emulator}`
        : ''
    throw new TillError(
      `${why}; nothing was saved`,
      error instanceof NetworkError ? ExitCode.unavailable : ExitCode.auth,
      `check the token, the environment and the URL, or save it unchecked with ${v.forceFlag}${local}`,
    )
  }
}
