// Programs a few tests drive besides till (zsh, fish, Chromium), found where they are installed. A test
// that needs one that is missing is skipped with the reason in its title and one warning line, instead
// of failing with `spawnSync zsh ENOENT` on a machine that lacks it (`.ci/run` installs them all).
import {accessSync, constants} from 'node:fs'
import {delimiter, join} from 'node:path'

import {chromium, type Browser} from 'playwright-core'

export interface Tool {
  /** What it is, for messages: `zsh`, `Chromium`. */
  name: string
  /** Its path, when found. */
  path?: string
  /** True when it is missing: pass to `it.skipIf` / `describe.skipIf`. */
  missing: boolean
  /** '' when found; otherwise ` (skipped: ... is not installed; how to install it)`, for the test's title. */
  skipped: string
}

const executable = (file: string): boolean => {
  try {
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** The first of `names` found on `PATH` (each folder in order, as a shell looks), or undefined. */
export function onPath(names: string[], path = process.env.PATH ?? ''): string | undefined {
  const folders = path.split(delimiter).filter(Boolean)
  for (const name of names) {
    for (const folder of folders) {
      const file = join(folder, name)
      if (executable(file)) return file
    }
  }
  return undefined
}

const warned = new Set<string>()

/**
 * A program looked up on PATH (`names` in order), or at the path `envVar` names when it is set. When it is
 * missing, says so once on stderr with `install`, the way to get it.
 */
export function tool(name: string, names: string[], install: string, options: {envVar?: string; env?: NodeJS.ProcessEnv} = {}): Tool {
  const env = options.env ?? process.env
  const fromVar = options.envVar ? env[options.envVar] : undefined
  const path = fromVar ? (executable(fromVar) ? fromVar : undefined) : onPath(names, env.PATH ?? '')
  if (path) return {name, path, missing: false, skipped: ''}
  const where = fromVar ? `${options.envVar}=${fromVar} is not an executable file` : `${name} is not installed (looked for ${names.join(', ')} on PATH)`
  const reason = `${where}; ${install}`
  if (!warned.has(reason) && options.env === undefined) {
    warned.add(reason)
    console.warn(`Skipping the tests that need ${name}: ${reason}`)
  }
  return {name, missing: true, skipped: ` (skipped: ${reason})`}
}

const APT = (pkg: string) => `install it (e.g. apt-get install ${pkg}) and run the tests again; see "Tests" in README.md`

export const zsh = (env?: NodeJS.ProcessEnv) => tool('zsh', ['zsh'], APT('zsh'), {env})
export const fish = (env?: NodeJS.ProcessEnv) => tool('fish', ['fish'], APT('fish'), {env})
export const chromiumTool = (env?: NodeJS.ProcessEnv) =>
  tool(
    'Chromium',
    ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'],
    `${APT('chromium')}, or set CHROME_PATH to a Chrome or Chromium`,
    {
      envVar: 'CHROME_PATH',
      env,
    },
  )

/** Headless Chromium (found by `chromiumTool`), as the browser tests use it. */
export function launchChromium(path: string): Promise<Browser> {
  return chromium.launch({
    executablePath: path,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}
