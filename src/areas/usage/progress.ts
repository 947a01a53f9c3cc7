// What `events ingest` shows on stderr: a progress bar on a terminal (cli-progress), a one-line summary.
import {fittedFormat} from '../../cli/output/progress-fit.js'
import type {IngestProgress, IngestSummary} from './ingest.js'

export interface ProgressView {
  update(p: IngestProgress): void
  /** A wait of `ms` (pacing, Retry-After): the bar says so instead of a time left; false when nothing is shown. */
  waiting(ms: number, why: string): boolean
  /** Clears the bar for good: later updates draw nothing (a line written next is not drawn over). */
  stop(): void
}

const quiet: ProgressView = {update() {}, waiting: () => false, stop() {}}

/** `45s`, `3m05s`, `1h02m`. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds))
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
}

/** A bar over the input's bytes when its size is known, counters otherwise; nothing when not on a terminal. */
export async function progressView(stream: NodeJS.WriteStream, isTTY: boolean, totalBytes: number | null, now: () => number = Date.now): Promise<ProgressView> {
  if (!isTTY) return quiet
  const {SingleBar, Format} = (await import('cli-progress')).default
  // the whole counters, or short ones on a narrow terminal; the bar takes the room left (fittedFormat)
  const counters = [
    '{read} read | {inserted} inserted | {duplicates} duplicates | {rejected} rejected | {rate} events/s',
    '{read} read, {inserted} new, {duplicates} dup, {rejected} rejected',
  ]
  const started = now()
  let bytes = 0
  let waitUntil = 0
  let why = ''
  let stopped = false
  // what comes after the counters: the time left, or the wait under way and why (read as the bar is drawn)
  const left = () => {
    const wait = Math.ceil((waitUntil - now()) / 1000)
    if (wait > 0) return `waiting ${wait}s for ${why}`
    if (!totalBytes || bytes === 0) return ''
    return `${duration((((now() - started) / 1000) * (totalBytes - bytes)) / bytes)} left`
  }
  const fitted = totalBytes
    ? fittedFormat(
        Format.Formatter,
        counters.map((c) => `{bar} {percentage}% | ${c} | {left}`),
      )
    : fittedFormat(
        Format.Formatter,
        counters.map((c) => `${c}{wait}`),
      )
  const bar = new SingleBar({
    stream,
    format: (options, params, payload) => {
      const l = left()
      return fitted(options, params, {...(payload as object), left: l, wait: l ? ` | ${l}` : ''})
    },
    barsize: 30,
    hideCursor: true,
    clearOnComplete: true,
    etaBuffer: 50,
    fps: 8,
  })
  const values = (p: IngestProgress) => ({
    read: p.read,
    inserted: p.inserted,
    duplicates: p.duplicates,
    rejected: p.rejected,
    rate: rate(p.inserted + p.duplicates, now() - started),
  })
  bar.start(totalBytes ?? 1, 0, values({read: 0, inserted: 0, duplicates: 0, rejected: 0, requests: 0, bytes: 0}))
  return {
    update: (p) => {
      if (stopped) return
      bytes = totalBytes ? Math.min(p.bytes, totalBytes) : 0
      bar.update(bytes, values(p))
    },
    waiting: (ms, reason) => {
      if (stopped) return false
      waitUntil = Math.max(waitUntil, now() + ms)
      // short, for the bar's line: "rate budget", "per-IP limit", "Retry-After"
      why = /rate budget/.test(reason) ? 'the rate budget' : /per-IP/.test(reason) ? 'the per-IP limit' : 'Retry-After'
      return true
    },
    stop: () => {
      if (stopped) return
      stopped = true
      bar.stop()
    },
  }
}

export const rate = (events: number, ms: number) => (ms <= 0 ? 0 : Math.round((events * 1000) / ms))

/** `3 lines`, `1 line`. */
const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** `Read 1200 lines: 1000 inserted, 150 duplicates, 50 rejected; 2 requests in 0.4s (2875 events/s).` */
export function summaryLine(s: IngestSummary, ms: number): string {
  const resumed = s.resumedLines > 0 ? ` (${count(s.resumedLines, 'line')} already settled by an earlier run skipped)` : ''
  // a run that was stopped says so first: its counts are not those of the whole input
  return `${s.interrupted ? 'Interrupted after reading' : 'Read'} ${count(s.read, 'line')}${resumed}: ${s.inserted} inserted, ${count(s.duplicates, 'duplicate')}, ${s.rejected} rejected; ${count(s.requests, 'request')} in ${(ms / 1000).toFixed(1)}s (${rate(s.inserted + s.duplicates, ms)} events/s).`
}
