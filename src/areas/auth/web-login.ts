// The browser sign-in (`oauth2:authorize`): authorization code with PKCE S256. till listens on a loopback
// port, sends the user to the authorize page with a fresh `state` and code challenge, takes the code
// from the redirect when the state matches, and exchanges it with the verifier for tokens.
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'

import type {ApiClient} from '../../client/client.js'
import {ApiError} from '../../client/errors.js'
import {authorizeUrl, CALLBACK_PATH, newState, pkcePair, TILL_SCOPES, tokensFrom, type OAuthTokens} from '../../client/oauth.js'
import {requestToken} from '../../client/resources/oauth2.js'
import {ExitCode, TillError} from '../../client/till-error.js'

export interface WebLoginOptions {
  /** The API base URL (`.../v1`); the authorize page is the environment's dashboard host. */
  baseUrl: string
  clientId: string
  /** A client without credentials for `/v1/oauth2/token`. */
  anonymous: ApiClient
  /** Loopback port to listen on; 0 for any free one. */
  port: number
  /** Longest wait for the browser's answer. */
  timeoutMs: number
  /** Shows the authorize URL (and opens it when it can). */
  show: (url: string) => Promise<void>
  now?: () => number
}

const PAGE = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body style="font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto"><h1>${title}</h1><p>${text}</p></body></html>`

const nothingSaved = 'nothing was saved'

/** What the redirect said: a code, or why there is none. */
type Answer = {code: string} | {error: TillError}

/** Reads one redirect: the state must be the one sent; then a code, or the service's error. */
export function readRedirect(query: URLSearchParams, state: string): Answer {
  if (query.get('state') !== state) {
    return {
      error: new TillError(
        `the browser's answer did not carry the state till sent (a stale or forged sign-in); ${nothingSaved}`,
        ExitCode.auth,
        'sign in again: till auth login --web',
      ),
    }
  }
  const error = query.get('error')
  if (error === 'access_denied')
    return {error: new TillError(`the sign-in was denied in the browser; ${nothingSaved}`, ExitCode.auth, 'run till auth login --web again and choose Allow')}
  if (error) {
    const description = query.get('error_description')
    return {error: new TillError(`the service refused the sign-in: ${error}${description ? ` (${description})` : ''}; ${nothingSaved}`, ExitCode.auth)}
  }
  const code = query.get('code')
  if (!code)
    return {error: new TillError(`the browser's answer had no authorization code; ${nothingSaved}`, ExitCode.auth, 'sign in again: till auth login --web')}
  return {code}
}

/** Listens on 127.0.0.1 for the one redirect of this sign-in. */
async function listen(port: number, state: string): Promise<{server: Server; redirectUri: string; answer: Promise<Answer>}> {
  let settle!: (a: Answer) => void
  const answer = new Promise<Answer>((resolve) => (settle = resolve))
  const server = createServer((req, res) => {
    // Whatever else reaches the port (a malformed target, another path) is answered and ignored.
    const url = URL.canParse(req.url ?? '/', 'http://127.0.0.1') ? new URL(req.url ?? '/', 'http://127.0.0.1') : undefined
    if (!url || url.pathname !== CALLBACK_PATH) {
      res.writeHead(404, {'content-type': 'text/plain'}).end('Not found')
      return
    }
    const read = readRedirect(url.searchParams, state)
    const ok = 'code' in read
    res.writeHead(ok ? 200 : 400, {'content-type': 'text/html; charset=utf-8', connection: 'close'})
    res.end(
      ok
        ? PAGE('Signed in to till', 'You can close this tab and go back to the terminal.')
        : PAGE('till did not sign in', read.error.message.replace(/[<>&]/g, '')),
    )
    settle(read)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new TillError(`port ${port} on 127.0.0.1 is in use`, ExitCode.usage, 'pass another --port, or --port 0 for any free one')
          : error,
      ),
    )
    server.listen(port, '127.0.0.1', () => resolve())
  })
  const {port: bound} = server.address() as AddressInfo
  return {server, redirectUri: `http://127.0.0.1:${bound}${CALLBACK_PATH}`, answer}
}

/** Runs the whole browser sign-in and returns the tokens (not yet stored). */
export async function webLogin(o: WebLoginOptions): Promise<OAuthTokens> {
  const state = newState()
  const {verifier, challenge} = pkcePair()
  const {server, redirectUri, answer} = await listen(o.port, state)
  let timer: NodeJS.Timeout | undefined
  try {
    await o.show(authorizeUrl(o.baseUrl, {clientId: o.clientId, redirectUri, scopes: TILL_SCOPES, state, challenge}))
    const timeout = new Promise<Answer>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            error: new TillError(
              `no answer from the browser within ${Math.round(o.timeoutMs / 1000)}s; ${nothingSaved}`,
              ExitCode.auth,
              'sign in again: till auth login --web',
            ),
          }),
        o.timeoutMs,
      )
    })
    const read = await Promise.race([answer, timeout])
    if ('error' in read) throw read.error
    try {
      const body = await requestToken(o.anonymous, {
        grant_type: 'authorization_code',
        code: read.code,
        redirect_uri: redirectUri,
        client_id: o.clientId,
        code_verifier: verifier,
      })
      return tokensFrom(body, o.clientId, (o.now ?? Date.now)())
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) {
        throw new TillError(`the service refused the sign-in code: ${error.message}; ${nothingSaved}`, ExitCode.auth, 'sign in again: till auth login --web')
      }
      throw error
    }
  } finally {
    clearTimeout(timer)
    server.closeAllConnections()
    server.close()
  }
}
