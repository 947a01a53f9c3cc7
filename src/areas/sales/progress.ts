// A progress bar on stderr for uploads (cli-progress), only on a terminal; nothing otherwise.
import type {IO} from '../../cli/context.js'

export interface Progress {
  update(sent: number, total: number): void
  stop(): void
}

export async function uploadProgress(io: IO, label: string, total: number): Promise<Progress> {
  if (!io.stderrIsTTY || total === 0) return {update() {}, stop() {}}
  const {SingleBar, Presets} = (await import('cli-progress')).default
  const bar = new SingleBar(
    {stream: io.stderr, format: `${label} [{bar}] {percentage}% | {value}/{total} bytes | ETA {eta}s`, hideCursor: true, clearOnComplete: false},
    Presets.shades_classic,
  )
  bar.start(total, 0)
  return {update: (sent) => bar.update(sent), stop: () => bar.stop()}
}
