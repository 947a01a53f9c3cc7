// OAuth2: the token endpoints of a sign-in (form bodies, no credentials) and the organization's OAuth2
// clients (`/v1/oauth2/register[/{client_id}]`, as RFC 7591/7592 registration). The published API has
// no operation that lists an organization's OAuth2 clients: a client is reached by its id.
import type {ApiClient} from '../client.js'
import type {TokenResponse} from '../oauth.js'
import type {OAuth2Client, OAuth2ClientConfiguration, OAuth2ClientConfigurationUpdate, Schema} from '../wire/index.js'
import {seg} from './common.js'

/** An OAuth2 client as the service answers it (`client_secret` only in the answer to its creation). */
export type {OAuth2Client, OAuth2ClientConfiguration}

/** Posts one form to `/v1/oauth2/token` (authorization code or refresh token). */
export const requestToken = (client: ApiClient, form: Record<string, string>) => client.post<TokenResponse>('/oauth2/token', undefined, {form, auth: 'none'})

/** Revokes an access or refresh token (the pair it belongs to); the service answers 200 whatever it was. */
export const revokeToken = (client: ApiClient, form: {token: string; token_type_hint?: string; client_id: string; client_secret?: string}) =>
  client.post<Record<string, never>>('/oauth2/revoke', undefined, {form: definedOnly(form), auth: 'none'})

export const introspectToken = (client: ApiClient, form: {token: string; client_id: string; client_secret?: string}) =>
  client.post<Schema<'IntrospectTokenResponse'>>('/oauth2/introspect', undefined, {form: definedOnly(form), auth: 'none'})

export const userinfo = (client: ApiClient) => client.get<Schema<'UserInfoUser'> | Schema<'UserInfoOrganization'>>('/oauth2/userinfo')

export const getOAuth2Client = (client: ApiClient, clientId: string) => client.get<OAuth2Client>(`/oauth2/register/${seg(clientId)}`)

export const createOAuth2Client = (client: ApiClient, body: OAuth2ClientConfiguration) => client.post<OAuth2Client>('/oauth2/register', body)

/** A full replacement (PUT): every field of the configuration, with `client_id`. */
export const updateOAuth2Client = (client: ApiClient, clientId: string, body: OAuth2ClientConfiguration) =>
  client
    .request<OAuth2Client>('PUT', `/oauth2/register/${seg(clientId)}`, {body: {...body, client_id: clientId} satisfies OAuth2ClientConfigurationUpdate})
    .then((r) => r.body)

export const deleteOAuth2Client = (client: ApiClient, clientId: string) => client.delete<null>(`/oauth2/register/${seg(clientId)}`)

function definedOnly(form: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(form).filter((e): e is [string, string] => e[1] !== undefined))
}
