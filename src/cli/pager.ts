// Paging a long detail view on a terminal, as gh and git do: through `TILL_PAGER`, else `PAGER`, else
// `less -FRX` (exit at once when it fits, keep colours, leave the text on the screen). `TILL_PAGER=`
// (empty) or `--no-pager` turn it off; never when stdout is not a terminal. node:child_process is loaded
// only to page: every command that prints reaches this module, and most never page (it costs start-up time).

export const DEFAULT_PAGER = 'less -FRX'

/** The pager's command line, or undefined for none. TILL_PAGER set (even empty) decides, then PAGER. */
export function pagerCommand(env: NodeJS.ProcessEnv): string | undefined {
  const chosen = env.TILL_PAGER ?? env.PAGER ?? DEFAULT_PAGER
  const command = chosen.trim()
  return command === '' || command === 'cat' ? undefined : command
}

/** Whether `text` is taller than a screen of `rows` lines. */
export const longerThanScreen = (text: string, rows: number | undefined): boolean => rows !== undefined && rows > 0 && text.split('\n').length - 1 > rows

/**
 * Shows `text` through the pager `command` (a shell command line) on the terminal `out`; resolves
 * true once it has quit, false when it could not be started (the caller prints the text itself).
 */
export async function page(text: string, command: string, out: NodeJS.WriteStream): Promise<boolean> {
  const {spawn} = await import('node:child_process')
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], {stdio: ['pipe', out, 'inherit'], env: {...process.env, LESS: process.env.LESS ?? 'FRX'}})
    child.once('error', () => resolve(false))
    // a pager quit before reading everything (q): not an error
    child.stdin.on('error', () => undefined)
    child.stdin.end(text)
    // 126/127: the shell found no such command
    child.once('close', (code) => resolve(code !== 126 && code !== 127))
  })
}
