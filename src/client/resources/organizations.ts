// Organizations: an organization token sees only its own (server/polar/organization/endpoints.py).
import type {ApiClient} from '../client.js'
import {ExitCode, TillError} from '../till-error.js'
import type {ListResource, Organization, OrganizationUpdate} from '../wire/index.js'
import {seg} from './common.js'

const own = new WeakMap<ApiClient, Promise<Organization>>()

async function fetchOwn(client: ApiClient): Promise<Organization> {
  const page = await client.get<ListResource<Organization>>('/organizations/', {query: {limit: 10}})
  if (page.items.length !== 1) {
    throw new TillError(
      `the token sees ${page.items.length} organizations, not one`,
      ExitCode.error,
      'use an organization access token, or set the organization id on the profile (till profiles add ... --organization-id ID)',
    )
  }
  return page.items[0]!
}

/** The organization the token belongs to (`GET /organizations/` lists only it); asked once per client. */
export function ownOrganization(client: ApiClient): Promise<Organization> {
  let org = own.get(client)
  if (!org) {
    org = fetchOwn(client)
    own.set(client, org)
    org.catch(() => own.delete(client))
  }
  return org
}

/** The profile's organization id when it has one, else the token's own organization's. */
export async function organizationId(client: ApiClient, configured?: string): Promise<string> {
  return configured ?? (await ownOrganization(client)).id
}

export type {OrganizationUpdate}

export const updateOrganization = (client: ApiClient, id: string, body: OrganizationUpdate) => client.patch<Organization>(`/organizations/${seg(id)}`, body)

/** An organization by id (an organization token sees only its own: any other is not found). */
export const getOrganization = (client: ApiClient, id: string) => client.get<Organization>(`/organizations/${seg(id)}`)
