// A file system error in plain words: "cannot read usage.jsonl: it is a folder" rather than
// "EISDIR: illegal operation on a directory, read". Shared by every command that reads or writes a file.
import {statSync} from 'node:fs'
import {dirname} from 'node:path'

import {ExitCode, TillError, type ExitCodeValue} from './till-error.js'

const REASONS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  EISDIR: 'it is a folder, not a file',
  ENOTDIR: 'a part of the path is not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the disk',
  EDQUOT: 'the disk quota is used up',
  EEXIST: 'it already exists',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
  EMFILE: 'too many open files',
  EBUSY: 'it is busy',
  EINVAL: 'it cannot be read as a file',
}

/** True for an error of the operating system about a path (it has an errno code and a syscall). */
export function isFsError(error: unknown): error is NodeJS.ErrnoException {
  const e = error as NodeJS.ErrnoException | undefined
  return e instanceof Error && typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code) && typeof e.syscall === 'string'
}

/** Why a file operation failed, in words (the errno message when the code is not a common one). */
export function fsReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (code && REASONS[code]) return REASONS[code]
  return (error as Error | undefined)?.message ?? String(error)
}

/** A path as an error shows it: a long one (input pasted where a name belongs) is cut, never echoed whole. */
export function shownPath(path: string): string {
  return path.length > 200 ? `${path.slice(0, 60)}… (a name of ${path.length} characters)` : path
}

/**
 * `cannot <verb> <path>: <reason>` as a TillError (exit 2 for input the user named, 1 otherwise). A name
 * with bytes that are not UTF-8 reaches till with each such byte replaced (U+FFFD), so no file has it.
 */
export function fsError(error: unknown, verb: string, path: string, exitCode: ExitCodeValue = ExitCode.error, hint?: string): TillError {
  if ((error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT' && path.includes('\ufffd')) {
    return new TillError(
      `cannot ${verb} ${shownPath(path)}: the name has bytes that are not UTF-8 (shown as \ufffd), which till cannot pass on as they are`,
      exitCode,
      'rename the file to a UTF-8 name first (a shell wildcard reaches it, e.g. mv report*.csv report.csv)',
    )
  }
  return new TillError(`cannot ${verb} ${shownPath(path) || 'a file'}: ${fsReason(error)}`, exitCode, hint)
}

/** What a failed system call was doing, for "cannot <verb> <path>". */
const VERBS: Record<string, string> = {
  open: 'open',
  read: 'read',
  write: 'write',
  rename: 'write',
  stat: 'read',
  scandir: 'read',
  mkdir: 'create the folder',
  unlink: 'remove',
}

/** Reading a path that is not there (or not a file): the name the user gave is wrong, a usage error. */
const MISSING = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'ENAMETOOLONG'])
const READS = new Set(['open', 'read', 'stat', 'lstat', 'scandir', 'access'])

/**
 * Any file error that reached the top, in words; a temporary file (`x.123.part`, `x.tmp`) is named as the
 * file it stands for. A file to read that is missing is bad input (exit 2), named with the folder it was looked for in.
 */
export function systemFileError(error: NodeJS.ErrnoException): TillError {
  const path = (error.path ?? '').replace(/\.[^./]*\.(part|tmp)$|\.partial-\d+$/, '')
  // a temporary file is one till writes: its folder missing is no file to read
  const temporary = path !== (error.path ?? '')
  if (!temporary && MISSING.has(error.code ?? '') && READS.has(error.syscall ?? ''))
    return fsError(error, 'read', path, ExitCode.usage, `check the path (relative to the current folder, ${process.cwd()})`)
  return fsError(error, VERBS[error.syscall ?? ''] ?? 'use', path)
}

/**
 * Checks, before any work, that `file` can be written: its folder exists and is a folder, and the
 * name is not a folder. Throws a usage error naming the flag and the problem.
 */
export function checkWritableTarget(file: string, flag: string): void {
  if (file.trim() === '') throw new TillError(`${flag} needs a file name`, ExitCode.usage, `give ${flag} the path of the file to write`)
  const folder = dirname(file)
  const kind = (path: string) => {
    try {
      return statSync(path).isDirectory() ? 'folder' : 'other'
    } catch {
      return 'missing'
    }
  }
  const where = kind(folder)
  if (where === 'missing')
    throw new TillError(`${flag} ${file}: the folder ${folder} does not exist`, ExitCode.usage, 'create the folder first, or give another path')
  if (where !== 'folder') throw new TillError(`${flag} ${file}: ${folder} is not a folder`, ExitCode.usage, 'give a path inside a folder')
  if (kind(file) === 'folder')
    throw new TillError(`${flag} ${file} is a folder`, ExitCode.usage, `give a file name, e.g. ${flag} ${file.replace(/\/+$/, '')}/out`)
}

/**
 * Checks, before any work, that `file` is a file that can be read, and returns its size (null for a pipe
 * or device when `streams` allows them, as `<(command)` gives). Throws a usage error naming the problem.
 */
export function checkReadableFile(file: string, hint: string, options: {streams?: boolean} = {}): number | null {
  if (file.trim() === '') throw new TillError('the file name is empty', ExitCode.usage, hint)
  let info
  try {
    info = statSync(file)
  } catch (error) {
    throw fsError(error, 'read', file, ExitCode.usage, hint)
  }
  if (info.isDirectory()) throw new TillError(`cannot read ${shownPath(file)}: ${REASONS.EISDIR}`, ExitCode.usage, hint)
  if (info.isFile()) return info.size
  if (options.streams) return null
  throw new TillError(`cannot read ${shownPath(file)}: it is not a regular file (a device, pipe or socket)`, ExitCode.usage, hint)
}
