// Reading a file of till's own folders (the config, the caches, the journals, the emulator's tokens, the
// pace state and locks): what is at the path may not be a file. A FIFO blocks a read until something writes
// to it (every command hung, and `profiles list` past SIGTERM), and a link to /dev/zero never ends (the
// process grew past 12 GB). Each is opened without blocking (a FIFO then opens at once, with no writer) and
// read only when fstat says it is a regular file of a sane size.
import {closeSync, constants, fstatSync, openSync, readSync, type Stats} from 'node:fs'

/** A size no file of till's own reaches: a cache, a config or a lock file past it is something else. */
export const MiB = 1024 * 1024

// Windows has neither flag (its pipes and devices have no paths of this kind): 0 leaves the open as it is.
const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0)

/** Why a path that is not a regular file is not read, in words. */
function notAFile(stat: Stats): string {
  if (stat.isFIFO()) return 'it is a FIFO (named pipe), not a file'
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'it is a device, not a file'
  if (stat.isSocket()) return 'it is a socket, not a file'
  return 'it is not a regular file'
}

/** An error as fs-problem.ts words them: the code says what it is, the message why, in words. */
function refusal(code: string, message: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), {code, syscall: 'read', path})
}

/**
 * The bytes of the regular file at `path`, at most `maxBytes` of them. Throws as fs does (ENOENT and the
 * rest); a folder is EISDIR, any other kind of file EFTYPE and a file over `maxBytes` EFBIG, each with its
 * reason as the message ("it is a FIFO (named pipe), not a file").
 */
export function readOwnFile(path: string, maxBytes: number): Buffer {
  const fd = openSync(path, FLAGS)
  try {
    const stat = fstatSync(fd)
    if (stat.isDirectory()) throw refusal('EISDIR', 'it is a folder, not a file', path)
    if (!stat.isFile()) throw refusal('EFTYPE', notAFile(stat), path)
    if (stat.size > maxBytes) throw refusal('EFBIG', `it is ${stat.size} bytes, more than such a file ever holds (${maxBytes})`, path)
    const buffer = Buffer.allocUnsafe(stat.size)
    let read = 0
    while (read < stat.size) {
      const n = readSync(fd, buffer, read, stat.size - read, read)
      if (n === 0) break
      read += n
    }
    return read === stat.size ? buffer : buffer.subarray(0, read)
  } finally {
    closeSync(fd)
  }
}

/** The text (UTF-8) of the regular file at `path`, as readOwnFile reads it. */
export const readOwnText = (path: string, maxBytes: number): string => readOwnFile(path, maxBytes).toString('utf8')
