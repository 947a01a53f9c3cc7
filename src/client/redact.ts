// Tokens never reach output, logs or traces: anything shaped like one is masked.
const TOKEN = /\b(polar_[a-z]+(?:_[a-z])?_|whsec_)[A-Za-z0-9]{6,}/g

/** Replaces every token-looking value in `text` by its prefix and an ellipsis. */
export function redact(text: string): string {
  return text.replace(TOKEN, (_, prefix: string) => `${prefix}…`)
}

/** `polar_oat_abc…xyz`: enough to tell tokens apart, too little to use one. */
export function maskToken(token: string): string {
  const prefix = /^(polar_[a-z]+(?:_[a-z])?_|whsec_)/.exec(token)?.[1] ?? ''
  const rest = token.slice(prefix.length)
  if (rest.length < 12) return `${prefix}…`
  return `${prefix}${rest.slice(0, 3)}…${rest.slice(-3)}`
}
