// Opening a file in the desktop's default application (the browser for a page).
import {spawn} from 'node:child_process'
import {resolve} from 'node:path'

/** Starts the platform's opener on `file` and returns at once; a failure is reported through `note`. */
export function openInBrowser(file: string, note: (line: string) => void): Promise<void> {
  const path = resolve(file)
  const [command, args] =
    process.platform === 'darwin' ? ['open', [path]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', path]] : ['xdg-open', [path]]
  return new Promise((done) => {
    const child = spawn(command as string, args as string[], {detached: true, stdio: 'ignore'})
    child.once('error', () => {
      note(`Could not open a browser (${command} is missing): open ${path} yourself.`)
      done()
    })
    child.once('spawn', () => {
      child.unref()
      done()
    })
  })
}

/**
 * Whether a browser can be opened here: not over SSH, and on Linux only with a display. Elsewhere the
 * platform's opener is tried.
 */
export function canOpenBrowser(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.SSH_CONNECTION || env.SSH_TTY) return false
  if (process.platform === 'linux') return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY)
  return true
}

/** Opens `url` in the default browser; false when the opener could not be started. */
export function openUrl(url: string): Promise<boolean> {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['rundll32', ['url.dll,FileProtocolHandler', url]] : ['xdg-open', [url]]
  return new Promise((done) => {
    const child = spawn(command as string, args as string[], {detached: true, stdio: 'ignore'})
    child.once('error', () => done(false))
    child.once('spawn', () => {
      child.unref()
      done(true)
    })
  })
}
