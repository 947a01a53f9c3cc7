// Tokens never reach output, logs or traces: anything shaped like one is masked.
const TOKEN = /\b(polar_[a-z]+(?:_[a-z])?_|whsec_)[A-Za-z0-9]{6,}/g

/** The user and password of a URL (`https://user:secret@host`), as TILL_API_URL may carry them. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi

/** A URL's user and password (`https://user:secret@host`) replaced by an ellipsis; nothing else changed. */
export const redactUrlCredentials = (text: string): string => text.replace(URL_CREDENTIALS, '$1…@')

/** A seat invitation's token in the path that reads it (`/customer-seats/claim/TOKEN`): it has no prefix to know it by. */
const INVITATION_PATH = /(\/customer-seats\/claim\/)[^\s/?#]+/g

/** Replaces every token-looking value in `text` by its prefix and an ellipsis, and a URL's credentials by an ellipsis. */
export function redact(text: string): string {
  const masked = redactUrlCredentials(text).replace(INVITATION_PATH, '$1…')
  return maskTokens(masked.replace(PERCENT_ENCODED, (run) => (run.includes('%') ? redactEncoded(run) : run)))
}

const maskTokens = (text: string) => text.replace(TOKEN, (_, prefix: string) => `${prefix}…`)

/** A run of URL characters with percent escapes in it (`polar%5Foat%5F...` in a query string). */
const PERCENT_ENCODED = /(?:[A-Za-z0-9_.~-]|%[0-9A-Fa-f]{2})+/g

/** A percent-encoded run is decoded and masked when a token hides in it; otherwise left as it was. */
function redactEncoded(run: string): string {
  let decoded: string
  try {
    decoded = decodeURIComponent(run)
  } catch {
    return run
  }
  TOKEN.lastIndex = 0
  return TOKEN.test(decoded) ? maskTokens(decoded) : run
}

/** `polar_oat_abc…xyz`: enough to tell tokens apart, too little to use one. */
export function maskToken(token: string): string {
  const prefix = /^(polar_[a-z]+(?:_[a-z])?_|whsec_)/.exec(token)?.[1] ?? ''
  const rest = token.slice(prefix.length)
  if (rest.length < 12) return `${prefix}…`
  return `${prefix}${rest.slice(0, 3)}…${rest.slice(-3)}`
}
