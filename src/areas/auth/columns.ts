// `till auth status` on a terminal: every field under its label, with the words for the values scripts read
// raw under --json (`no-keyring` is "no OS keyring could be used").
import {column, type ResourceColumns} from '../../cli/output/columns.js'

const TOKEN_SOURCES: Record<string, string> = {
  env: 'the environment (TILL_TOKEN)',
  profile: "the profile's token",
  oauth: 'a browser sign-in',
  emulator: "the emulator's data",
  none: 'none',
}
const TOKEN_STORES: Record<string, string> = {
  keyring: 'the OS keyring',
  file: 'the config file',
  environment: 'the environment (TILL_TOKEN)',
  emulator: "the emulator's data",
}
const STORE_REASONS: Record<string, string> = {
  'no-keyring': 'no OS keyring could be used',
  'insecure-storage': 'asked for with --insecure-storage',
}

/** A value in words when it is one of `words`' keys, else as it is. */
const worded = (key: string, words: Record<string, string>) => (row: Record<string, unknown>) => {
  const value = row[key]
  return typeof value === 'string' ? (words[value] ?? value) : value
}

const columns = [
  column('profile', 'Profile', 'text'),
  column('environment', 'Environment', 'status'),
  column('base_url', 'Base URL', 'text'),
  column('organization', 'Organization', 'text'),
  column('credential', 'Credential', 'text'),
  column('token', 'Token', 'text'),
  column('token_source', 'Token source', 'text', worded('token_source', TOKEN_SOURCES)),
  column('token_store', 'Token store', 'text', worded('token_store', TOKEN_STORES)),
  column('token_store_reason', 'Kept there because', 'text', worded('token_store_reason', STORE_REASONS)),
  column('scopes', 'Scopes', 'text'),
  column('missing_scopes', 'Missing scopes', 'text', (row) => (Array.isArray(row.missing_scopes) ? row.missing_scopes.join(', ') : row.missing_scopes)),
  column('failing', 'Failing', 'text', (row) => (Array.isArray(row.failing) ? row.failing.join(', ') : row.failing)),
  column('expires_at', 'Expires at', 'date'),
  column('refreshable', 'Refreshable', 'bool'),
  column('oauth_client_id', 'OAuth client id', 'text'),
  column('works', 'Works', 'text'),
  column('rate_budget', 'Rate budget', 'text'),
]
const fields = columns.map((c) => c.key)

export const authColumns: Record<string, ResourceColumns> = {
  // piped without a format, the first four, as before the view had columns
  'auth-status': {columns, defaults: fields.slice(0, 4), fields, detail: {summary: columns, covers: fields}},
}
