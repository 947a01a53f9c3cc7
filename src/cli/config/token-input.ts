// Tokens come from a hidden prompt on a terminal or from stdin: never from argv, which other users can see.
import {readStdin} from '../input/fields.js'
import {usageError} from '../../client/till-error.js'
import {tokenLengthProblem} from '../settings.js'
import type {IO} from '../context.js'

/** True when a person can answer prompts: stdin and stdout are terminals, not CI, and --no-input not given. */
export function canPrompt(io: IO, noInput = false): boolean {
  return !noInput && io.stdinIsTTY && io.stdoutIsTTY && !process.env.CI
}

export async function readToken(io: IO, opts: {fromStdin: boolean; message: string; noInput?: boolean}): Promise<string> {
  let token: string
  if (opts.fromStdin) {
    token = (await readStdin()).trim()
    if (!token) throw usageError('--token-stdin was given but stdin was empty', 'pipe the token in, e.g. from a password manager: pass polar/token | till ...')
  } else if (canPrompt(io, opts.noInput)) {
    const {password} = await import('@inquirer/prompts')
    token = (await password({message: opts.message, mask: true})).trim()
    if (!token) throw usageError('no token was entered')
  } else {
    throw usageError('a token is needed and there is no terminal to ask for it', 'pipe it in with --token-stdin (tokens are never taken as arguments)')
  }
  if (/\s/.test(token)) throw usageError('the token contains spaces or line breaks; pass only the token')
  const tooLong = tokenLengthProblem(token, 'the token given')
  if (tooLong) throw tooLong
  return token
}
