// The service's error bodies (server/polar/exception_handlers.py). Handlers throw these; the server writes them.

export interface ValidationIssue {
  type: string
  loc: Array<string | number>
  msg: string
  input?: unknown
  ctx?: Record<string, unknown>
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === 'object' && body && 'error' in body ? String((body as {error: unknown}).error) : `HTTP ${status}`)
  }
}

/** A domain error of the service: `{"error": "<ExceptionClassName>", "detail": "<message>"}`. */
export function domainError(status: number, error: string, detail: string): HttpError {
  return new HttpError(status, {error, detail})
}

export const notFound = (detail = 'Not found') => domainError(404, 'ResourceNotFound', detail)
export const notPermitted = (detail = 'Not permitted') => domainError(403, 'NotPermitted', detail)

/** Framework validation (wrong types, missing fields, bad query parameters). */
export function requestValidation(detail: ValidationIssue[]): HttpError {
  return new HttpError(422, {error: 'RequestValidationError', detail: boundEcho(detail)})
}

/** The most input (in JSON characters) one 422 echoes back: as much as the largest body accepted. */
export const MAX_ECHO = 10 * 1024 * 1024

/**
 * Each issue echoes its input, and one value can be echoed by many issues (every branch of a union, every
 * level of a nesting): past `budget` characters in all, the issues that follow are kept without their
 * input, so that an answer never grows beyond a bounded multiple of what was sent.
 */
export function boundEcho(detail: ValidationIssue[], budget = MAX_ECHO): ValidationIssue[] {
  let left = budget
  return detail.map((issue) => {
    if (issue.input === undefined) return issue
    const size = JSON.stringify(issue.input)?.length ?? 0
    if (size > left) {
      left = 0
      const {input: _dropped, ...rest} = issue
      return rest
    }
    left -= size
    return issue
  })
}

/**
 * A service rule rejected valid-looking input (`PolarRequestValidationError`): one `value_error` at `loc`,
 * or the issues given, each with its own type.
 */
export function ruleValidation(loc: Array<string | number>, msg: string, input?: unknown): HttpError
export function ruleValidation(detail: ValidationIssue[]): HttpError
export function ruleValidation(locOrDetail: Array<string | number> | ValidationIssue[], msg?: string, input?: unknown): HttpError {
  const detail = msg === undefined ? (locOrDetail as ValidationIssue[]) : [{type: 'value_error', loc: locOrDetail as Array<string | number>, msg, input}]
  return new HttpError(422, {error: 'PolarRequestValidationError', detail})
}

const BEARER = 'Bearer realm="polar"'

export const unauthorized = () => new HttpError(401, {error: 'Unauthorized', detail: 'Unauthorized'}, {'www-authenticate': BEARER})

export const invalidToken = () =>
  new HttpError(
    401,
    {
      error: 'invalid_token',
      error_description: 'The access token provided is expired, revoked, malformed, or invalid for other reasons.',
    },
    {'www-authenticate': `${BEARER}, error="invalid_token"`, 'cache-control': 'no-store', pragma: 'no-cache'},
  )

export const routeNotFound = () => new HttpError(404, {detail: 'Not Found'})
export const methodNotAllowed = () => new HttpError(405, {detail: 'Method Not Allowed'})

/** A token without any of the scopes a route needs; `scopes` are named in the header. */
export const insufficientScope = (scopes: string[]) =>
  new HttpError(
    403,
    {error: 'insufficient_scope', error_description: 'The request requires higher privileges than provided by the access token.'},
    {'www-authenticate': `${BEARER}, error="insufficient_scope", scope="${scopes.join(' ')}"`},
  )
