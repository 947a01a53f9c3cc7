export interface Change {
  kind: 'operation' | 'parameter' | 'schema' | 'enum value'
  change: 'added' | 'removed' | 'changed'
  name: string
  detail?: string
}
export function changes(before: unknown, after: unknown): Change[]
export function summary(list: Change[]): string[]
