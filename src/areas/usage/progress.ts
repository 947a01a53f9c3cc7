// What `events ingest` shows on stderr: a progress bar on a terminal (cli-progress), a one-line summary.
import {fittedFormat} from '../../cli/output/progress-fit.js'
import type {IngestProgress, IngestSummary} from './ingest.js'

export interface ProgressView {
  update(p: IngestProgress): void
  stop(): void
}

const quiet: ProgressView = {update() {}, stop() {}}

/** A bar over the input's bytes when its size is known, counters otherwise; nothing when not on a terminal. */
export async function progressView(stream: NodeJS.WriteStream, isTTY: boolean, totalBytes: number | null, now: () => number = Date.now): Promise<ProgressView> {
  if (!isTTY) return quiet
  const {SingleBar, Format} = (await import('cli-progress')).default
  // the whole counters, or short ones on a narrow terminal; the bar takes the room left (fittedFormat)
  const counters = [
    '{read} read | {inserted} inserted | {duplicates} duplicates | {rejected} rejected | {rate} events/s',
    '{read} read, {inserted} new, {duplicates} dup, {rejected} rejected',
  ]
  const bar = new SingleBar({
    stream,
    format: totalBytes
      ? fittedFormat(
          Format.Formatter,
          counters.map((c) => `{bar} {percentage}% | ${c} | {eta_formatted} left`),
        )
      : fittedFormat(Format.Formatter, counters),
    barsize: 30,
    hideCursor: true,
    clearOnComplete: true,
    etaBuffer: 50,
    fps: 8,
  })
  const started = now()
  const values = (p: IngestProgress) => ({
    read: p.read,
    inserted: p.inserted,
    duplicates: p.duplicates,
    rejected: p.rejected,
    rate: rate(p.inserted + p.duplicates, now() - started),
  })
  bar.start(totalBytes ?? 1, 0, values({read: 0, inserted: 0, duplicates: 0, rejected: 0, requests: 0, bytes: 0}))
  return {
    update: (p) => bar.update(totalBytes ? Math.min(p.bytes, totalBytes) : 0, values(p)),
    stop: () => bar.stop(),
  }
}

export const rate = (events: number, ms: number) => (ms <= 0 ? 0 : Math.round((events * 1000) / ms))

/** `3 lines`, `1 line`. */
const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** `Read 1200 lines: 1000 inserted, 150 duplicates, 50 rejected; 2 requests in 0.4s (2875 events/s).` */
export function summaryLine(s: IngestSummary, ms: number): string {
  const resumed = s.resumedLines > 0 ? ` (${count(s.resumedLines, 'line')} already settled by an earlier run skipped)` : ''
  return `Read ${count(s.read, 'line')}${resumed}: ${s.inserted} inserted, ${count(s.duplicates, 'duplicate')}, ${s.rejected} rejected; ${count(s.requests, 'request')} in ${(ms / 1000).toFixed(1)}s (${rate(s.inserted + s.duplicates, ms)} events/s).`
}
