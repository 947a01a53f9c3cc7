// OAuth2 clients: columns, the flags of create and update, the configuration they send, and the secret
// kept out of every answer but the creation's.
import {Flags} from '@oclif/core'

import type {OAuth2Client, OAuth2ClientConfiguration} from '../../client/resources/oauth2.js'
import {usageError} from '../../client/till-error.js'
import type {ResourceColumns} from '../../cli/output/columns.js'
import {columnsOf} from '../../cli/output/typed-columns.js'
import type {Schema} from '../../client/wire/index.js'

const client = columnsOf<Schema<'OAuth2Client'>>()

const list = (value: unknown) => (Array.isArray(value) ? value.join(', ') : '')

export const oauth2ClientColumns: ResourceColumns = {
  columns: [
    client.column('client_id', 'Client ID', 'id'),
    client.column('client_name', 'Name', 'text'),
    client.column('token_endpoint_auth_method', 'Auth', 'text'),
    client.column('redirect_uris', 'Redirect URIs', 'text', (row) => list(row.redirect_uris)),
    client.column('scope', 'Scopes', 'text', (row) => (typeof row.scope === 'string' ? `${row.scope.split(' ').length} scopes` : '')),
    client.column('default_sub_type', 'Acts as', 'text'),
    client.column('client_secret', 'Client secret', 'text'),
    client.column('created_at', 'Created', 'date'),
    client.column('modified_at', 'Modified', 'date'),
  ],
  defaults: ['client_id', 'client_name', 'token_endpoint_auth_method', 'redirect_uris', 'created_at'],
  fields: client.fields([
    'client_id',
    'created_at',
    'modified_at',
    'client_name',
    'redirect_uris',
    'token_endpoint_auth_method',
    'grant_types',
    'response_types',
    'scope',
    'client_uri',
    'logo_uri',
    'tos_uri',
    'policy_uri',
    'default_sub_type',
    'client_id_issued_at',
    'client_secret',
    'client_secret_expires_at',
  ]),
}

/** The answer to a creation: the secret, shown this once, is among the default columns. */
export const createdClientColumns: ResourceColumns = {
  ...oauth2ClientColumns,
  defaults: ['client_id', 'client_name', 'token_endpoint_auth_method', 'client_secret'],
}

export const oauth2Columns = {'oauth2-clients': oauth2ClientColumns, 'oauth2-client-created': createdClientColumns}

/** The client without its secrets (list, get, update): the secret is shown once, at creation. */
export function withoutSecrets(client: OAuth2Client): OAuth2Client {
  // the published document leaves this answer's schema open: anything but an object is passed on as it is
  if (typeof client !== 'object' || client === null || Array.isArray(client)) return client
  // `registration_access_token` is not in the document's OAuth2Client, but an RFC 7591 answer may carry one.
  const {client_secret: _secret, registration_access_token: _registration, ...rest} = client as OAuth2Client & {registration_access_token?: string}
  return rest as OAuth2Client
}

export const AUTH_METHODS = ['client_secret_post', 'client_secret_basic', 'none'] as const

export const configurationFlags = {
  name: Flags.string({description: 'Name shown to users on the authorize page.'}),
  'redirect-uri': Flags.string({
    description: 'Where the service sends users back (https, or http on localhost); repeatable. On update, replaces the list.',
    multiple: true,
  }),
  scope: Flags.string({description: 'A scope the client may ask for (repeatable, or space-separated). Default on create: every scope.', multiple: true}),
  public: Flags.boolean({description: 'A public client (a CLI or single-page app): no secret, PKCE required (same as --auth-method none).'}),
  'auth-method': Flags.option({options: AUTH_METHODS, description: 'How the client authenticates at the token endpoint.'})(),
  'client-uri': Flags.string({description: "The client's home page."}),
  'logo-uri': Flags.string({description: "The client's logo (URL)."}),
  'tos-uri': Flags.string({description: 'Terms of service (URL).'}),
  'policy-uri': Flags.string({description: 'Privacy policy (URL).'}),
  'default-sub-type': Flags.option({options: ['user', 'organization'] as const, description: 'Whom its tokens act for by default.'})(),
}

export interface ConfigurationFlagValues {
  name?: string
  'redirect-uri'?: string[]
  scope?: string[]
  public?: boolean
  'auth-method'?: (typeof AUTH_METHODS)[number]
  'client-uri'?: string
  'logo-uri'?: string
  'tos-uri'?: string
  'policy-uri'?: string
  'default-sub-type'?: 'user' | 'organization'
}

/** The configuration to send: the flags over `current` (an update sends the whole configuration back). */
export function configurationFrom(flags: ConfigurationFlagValues, current?: OAuth2Client): OAuth2ClientConfiguration {
  if (flags.public && flags['auth-method'] && flags['auth-method'] !== 'none')
    throw usageError(`--public and --auth-method ${flags['auth-method']} contradict each other`, 'a public client has no secret: keep one of them')
  const name = flags.name ?? (current?.client_name as string | undefined)
  if (!name) throw usageError('a client needs a name', 'pass --name "My integration"')
  const redirectUris = flags['redirect-uri'] ?? (current?.redirect_uris as string[] | undefined)
  if (!redirectUris?.length) throw usageError('a client needs at least one redirect URI', 'pass --redirect-uri https://example.com/oauth/callback (repeatable)')
  const scope = flags.scope
    ? flags.scope
        .flatMap((s) => s.split(/\s+/))
        .filter(Boolean)
        .join(' ')
    : (current?.scope as string | undefined)
  const keep = (flag: string | undefined, key: 'client_uri' | 'logo_uri' | 'tos_uri' | 'policy_uri') => flag ?? current?.[key] ?? undefined
  return {
    client_name: name,
    redirect_uris: redirectUris,
    ...(scope ? {scope} : {}),
    token_endpoint_auth_method: flags.public
      ? 'none'
      : (flags['auth-method'] ?? (current?.token_endpoint_auth_method as OAuth2ClientConfiguration['token_endpoint_auth_method'])),
    client_uri: keep(flags['client-uri'], 'client_uri'),
    logo_uri: keep(flags['logo-uri'], 'logo_uri'),
    tos_uri: keep(flags['tos-uri'], 'tos_uri'),
    policy_uri: keep(flags['policy-uri'], 'policy_uri'),
    ...((flags['default-sub-type'] ?? current?.default_sub_type) ? {default_sub_type: flags['default-sub-type'] ?? current?.default_sub_type} : {}),
  }
}
