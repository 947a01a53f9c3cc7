// The one place `TILL_*` settings are read from the environment: a variable set to the empty string
// (`TILL_ENV=$DEPLOY_ENV` with the variable unset) means the same as not set at all.

/** Removes every `TILL_*` variable whose value is empty, before anything (oclif's flag parser too) reads them. */
export function dropEmptySettings(env: NodeJS.ProcessEnv): void {
  for (const key of Object.keys(env)) {
    if (key.startsWith('TILL_') && env[key]?.trim() === '') delete env[key]
  }
}

/** Where to report a bug in till itself. */
export const REPORT_URL = 'the till project\'s issue tracker (with the output of --debug)'

/** JavaScript's own errors: a defect in till, never something the user did. */
export function isInternalError(error: unknown): boolean {
  return error instanceof TypeError || error instanceof RangeError || error instanceof ReferenceError || error instanceof SyntaxError || error instanceof EvalError
}
