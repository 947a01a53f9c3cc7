export function derive(document: unknown): Record<string, unknown>
export function text(document: unknown): string
export const CONTRACT_DIR: string
export const SNAPSHOTS: string
export function snapshotOf(
  source: string,
  version: string,
  given: {commit?: string; date?: string},
): {repository: string; path: string; commit: string | null; date: string | null}
