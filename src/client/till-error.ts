// till's errors and exit codes, in one place (documented in the README).
export const ExitCode = {
  ok: 0,
  error: 1,
  usage: 2,
  notFound: 3,
  auth: 4,
  rateLimited: 5,
  unavailable: 6,
  /** A write whose answer was lost, and whose outcome neither a second send nor a lookup can settle. */
  unknown: 7,
  /** `till catalog plan`: the environment differs from the file (as `terraform plan -detailed-exitcode`). */
  changesPending: 10,
  /** `events ingest --skip-invalid`: the rest was sent, but some input lines were rejected (each named on stderr). */
  rejected: 11,
  /** Another till process is using the same thing (an ingest checkpoint, an environment being applied to). */
  busy: 12,
  /** A bulk job with this input was stopped before it finished: run it again with --resume or --restart. */
  unfinished: 13,
  interrupted: 130,
} as const

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode]

/** Marks a TillError made by any copy of this module (the CLI and the emulator are bundled apart). */
const TILL_ERROR = Symbol.for('till.TillError')

/** An error meant for the user: one line, an optional hint, a documented exit code. */
export class TillError extends Error {
  readonly [TILL_ERROR] = true
  readonly exitCode: ExitCodeValue
  /** oclif reads `oclif.exit` on its own error paths. */
  readonly oclif: {exit: number}

  constructor(
    message: string,
    exitCode: ExitCodeValue = ExitCode.error,
    readonly hint?: string,
  ) {
    super(message)
    this.name = 'TillError'
    this.exitCode = exitCode
    this.oclif = {exit: exitCode}
  }
}

// `instanceof TillError` holds for one made by the emulator's bundle too; subclasses check as usual.
Object.defineProperty(TillError, Symbol.hasInstance, {
  value(this: unknown, value: unknown): boolean {
    if (this !== TillError) return Function.prototype[Symbol.hasInstance].call(this, value)
    return typeof value === 'object' && value !== null && TILL_ERROR in value
  },
})

export const usageError = (message: string, hint?: string) => new TillError(message, ExitCode.usage, hint)
