// Reading both sides of a plan: the catalog file (checked, every problem with its line) and the
// environment (every object of every kind, archived ones included).
import {readFileSync} from 'node:fs'

import type {ApiClient} from '../../client/client.js'
import type {Item} from '../../client/resources/common.js'
import {ExitCode, TillError, usageError} from '../../client/till-error.js'
import {issueLines, readCatalog, type Catalog, type LocatedIssue} from './document.js'
import {KINDS} from './kinds/index.js'
import type {Environment} from './plan.js'

/** The file's text; a missing or unreadable file is a usage error naming it. */
export function catalogText(file: string): string {
  if (file.trim() === '') throw usageError('the catalog file name is empty', 'give the path of a catalog file, or - for stdin')
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message
    throw usageError(`cannot read the catalog file ${file}: ${why}`, 'write one with: till catalog pull --out catalog.yaml')
  }
}

/** The checked catalog, or an error listing every problem with its line (exit 2). */
export function loadCatalog(file: string, text = catalogText(file)): Catalog {
  const {catalog, issues} = readCatalog(text)
  if (issues.length > 0) throw invalidCatalog(file, issues)
  return catalog
}

export function invalidCatalog(file: string, issues: LocatedIssue[]): TillError {
  const lines = issueLines(file === '-' ? 'stdin' : file, issues)
  const error = new TillError(`the catalog file has ${issues.length === 1 ? 'a problem' : `${issues.length} problems`}:\n${lines.join('\n')}`, ExitCode.usage)
  return error
}

/** Every object of every kind in the environment, one kind after the other. */
export async function readEnvironment(client: ApiClient): Promise<Environment> {
  const env: Environment = {}
  for (const kind of KINDS) {
    const items: Item[] = []
    for await (const item of kind.list(client)) items.push(item)
    env[kind.section] = items
  }
  return env
}
