// The invoice flow shared by `orders invoice` and `portal orders invoice`: generate, wait, get, download.
import {randomBytes} from 'node:crypto'
import {rename, rm, stat, writeFile} from 'node:fs/promises'
import {dirname, join, basename} from 'node:path'

import type {ApiClient} from '../client.js'
import {ApiError} from '../errors.js'
import {fsReason} from '../fs-problem.js'
import {settled, trackTemp} from '../temp-files.js'
import {ExitCode, TillError} from '../till-error.js'

/**
 * The 404 of an order without an invoice: `InvoiceDoesNotExist` as the service raises it, or
 * `ResourceNotFound` saying so, as its published document names every 404 of the operation.
 */
const isMissingInvoice = (error: unknown) =>
  error instanceof ApiError &&
  error.status === 404 &&
  (error.code === 'InvoiceDoesNotExist' || (error.code === 'ResourceNotFound' && /^No invoice exists/.test(String((error.body as {detail?: unknown}).detail))))

export interface InvoiceRoutes {
  /** e.g. `/orders/ID/invoice` or `/customer-portal/orders/ID/invoice` */
  path: (orderId: string) => string
  /** The commands that generate and get it, for hints. */
  generateCommand: (orderId: string) => string
  getCommand: (orderId: string) => string
}

export const coreInvoices: InvoiceRoutes = {
  path: (id) => `/orders/${encodeURIComponent(id)}/invoice`,
  generateCommand: (id) => `till orders invoice generate ${id}`,
  getCommand: (id) => `till orders invoice get ${id}`,
}

/** The invoice URL, or exit 3 with the command that makes one. */
export async function invoiceUrl(client: ApiClient, routes: InvoiceRoutes, orderId: string): Promise<string> {
  try {
    return (await client.get<{url: string}>(routes.path(orderId))).url
  } catch (error) {
    if (isMissingInvoice(error)) {
      throw new TillError(`no invoice yet for order ${orderId}; run: ${routes.generateCommand(orderId)}`, ExitCode.notFound)
    }
    throw error
  }
}

/**
 * Polls until the invoice exists (each poll goes through the client's pacing), up to `timeoutMs`.
 * Returns its URL.
 */
export async function waitForInvoice(
  client: ApiClient,
  routes: InvoiceRoutes,
  orderId: string,
  opts: {timeoutMs: number; intervalMs?: number; sleep?: (ms: number) => Promise<void>},
): Promise<string> {
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  const deadline = Date.now() + opts.timeoutMs
  for (let interval = opts.intervalMs ?? 500; ; interval = Math.min(interval * 2, 5000)) {
    try {
      return (await client.get<{url: string}>(routes.path(orderId))).url
    } catch (error) {
      if (!isMissingInvoice(error)) throw error
    }
    if (Date.now() + interval > deadline) {
      throw new TillError(
        `the invoice for order ${orderId} was not ready after ${Math.round(opts.timeoutMs / 1000)}s`,
        ExitCode.error,
        `it is being generated; check later with: ${routes.getCommand(orderId)}`,
      )
    }
    await sleep(interval)
  }
}

/** Saves `data` to `file` atomically: a partly written file never takes the name. */
export async function saveFile(file: string, data: Buffer): Promise<void> {
  const tmp = join(dirname(file), `.${basename(file)}.${randomBytes(4).toString('hex')}.part`)
  trackTemp(tmp)
  try {
    await writeFile(tmp, data, {flag: 'wx'})
    await rename(tmp, file)
  } catch (error) {
    await rm(tmp, {force: true})
    const code = (error as NodeJS.ErrnoException).code
    const folder = dirname(file)
    // The temporary file is never named: the user asked for `file`.
    throw new TillError(`cannot save ${file}: ${code === 'ENOENT' ? `the folder ${folder} does not exist` : fsReason(error)}`, ExitCode.error)
  } finally {
    settled(tmp)
  }
}

export interface InvoiceResult {
  order_id: string
  url: string
  file?: string
  /** The document itself, when it goes to stdout (`--download -`). */
  data?: Buffer
}

/** The file name the service gives the document (the last part of its URL's path), or one made from the order id. */
export function invoiceFileName(url: string, orderId: string): string {
  let name = ''
  try {
    name = decodeURIComponent(basename(new URL(url).pathname))
  } catch {
    // an odd URL: fall back below
  }
  return /^[^/\\\0]+\.[A-Za-z0-9]+$/.test(name) && !name.startsWith('.') ? name : `invoice-${orderId}.pdf`
}

const isDirectory = async (path: string) => (await stat(path).catch(() => undefined))?.isDirectory() ?? false

/**
 * `invoice get`: the URL, and with `download` the document: `-` returns it (for stdout), a folder gets
 * it under the service's file name, anything else is the file to save to.
 */
export async function fetchInvoice(
  client: ApiClient,
  routes: InvoiceRoutes,
  orderId: string,
  download: string | undefined,
  note: (line: string) => void,
): Promise<InvoiceResult> {
  const url = await invoiceUrl(client, routes, orderId)
  if (!download) return {order_id: orderId, url}
  const data = await client.download(url)
  if (download === '-') return {order_id: orderId, url, file: '-', data}
  const file = (await isDirectory(download)) ? join(download, invoiceFileName(url, orderId)) : download
  await saveFile(file, data)
  note(`Saved the invoice of order ${orderId} to ${file} (${data.length} bytes).`)
  return {order_id: orderId, url, file}
}

/** stdout: the document itself for `--download -`, else the result as JSON, or the bare URL (nothing when it was saved). */
export function invoiceOutput(result: InvoiceResult, json: boolean): string | Buffer {
  if (result.data) return result.data
  if (json) return `${JSON.stringify(result)}\n`
  return result.file ? '' : `${result.url}\n`
}
