// What `till migrate` shows on stderr while it reads: on a terminal, a line of counters (cli-progress) per
// phase (the target's catalog, products, discounts, customers, subscriptions); nothing otherwise.
import {fittedFormat} from '../../cli/output/progress-fit.js'

export interface MigrationProgress {
  update(phase: string, n: number): void
  stop(): void
}

export async function migrationProgress(stream: NodeJS.WriteStream, isTTY: boolean): Promise<MigrationProgress> {
  if (!isTTY) return {update() {}, stop() {}}
  const {SingleBar, Format} = (await import('cli-progress')).default
  const bar = new SingleBar({
    stream,
    format: fittedFormat(Format.Formatter, ['Reading {phase}: {n} so far | {duration_formatted}', '{phase}: {n}']),
    hideCursor: true,
    clearOnComplete: true,
    fps: 8,
  })
  bar.start(1, 0, {phase: 'the source', n: 0})
  return {
    update: (phase, n) => bar.update(0, {phase, n}),
    stop: () => bar.stop(),
  }
}
