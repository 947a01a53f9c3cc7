export function derive(document: unknown): Record<string, unknown>
export function text(document: unknown): string
export const CONTRACT_DIR: string
