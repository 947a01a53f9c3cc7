// A progress bar on stderr for uploads (cli-progress), only on a terminal; nothing otherwise.
import type {IO} from '../../cli/context.js'
import {formatBytes} from '../../cli/output/format.js'
import {fittedFormat} from '../../cli/output/progress-fit.js'

export interface Progress {
  update(sent: number, total: number): void
  stop(): void
}

export async function uploadProgress(io: IO, label: string, total: number): Promise<Progress> {
  if (!io.stderrIsTTY || total === 0) return {update() {}, stop() {}}
  const {SingleBar, Presets, Format} = (await import('cli-progress')).default
  const bar = new SingleBar(
    {
      stream: io.stderr,
      // the bar takes the room the text leaves on the terminal (fittedFormat)
      format: fittedFormat(Format.Formatter, [
        `${label} [{bar}] {percentage}% | {value} of {total} | ETA {eta}s`,
        `${label} [{bar}] {percentage}% | {value} of {total}`,
      ]),
      // sizes for people (2.4 MiB), not byte counts
      formatValue: (v: number, _options: unknown, type: string) => (type === 'value' || type === 'total' ? formatBytes(v) : String(v)),
      hideCursor: true,
      clearOnComplete: false,
    },
    Presets.shades_classic,
  )
  bar.start(total, 0)
  return {update: (sent) => bar.update(sent), stop: () => bar.stop()}
}
