// What the e-mail change commands share: the token, given as an argument or read from stdin (`-`), so
// that it need not show in the process list.
import {Args} from '@oclif/core'

import {usageError} from '../../client/till-error.js'

export const tokenArg = Args.string({
  description: 'The token of the verification link (polar_cev_...), or - to read it from stdin.',
  required: true,
  ignoreStdin: true,
})

/** The token itself: the argument, or the first line of stdin for `-`. */
export async function tokenFrom(arg: string, stdinLines: () => Promise<string[]>): Promise<string> {
  if (arg !== '-') return arg
  const [first] = await stdinLines()
  if (!first) throw usageError('no token on stdin', 'pipe the token of the verification link, or give it as the argument')
  return first.trim()
}
