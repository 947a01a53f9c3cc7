// Organizations: an organization token sees only its own (api-facts §3.1).
import type {ApiClient} from '../client.js'
import type {PageResult} from '../paginate.js'
import {ExitCode, TillError} from '../till-error.js'
import {seg, type Item} from './common.js'

const own = new WeakMap<ApiClient, Promise<Item>>()

async function fetchOwn(client: ApiClient): Promise<Item> {
  const page = await client.get<PageResult<Item>>('/organizations/', {query: {limit: 10}})
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
export function ownOrganization(client: ApiClient): Promise<Item> {
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

export interface OrganizationUpdate {
  name?: string
  email?: string | null
  website?: string | null
  avatar_url?: string | null
}

export const updateOrganization = (client: ApiClient, id: string, body: OrganizationUpdate) => client.patch<Item>(`/organizations/${seg(id)}`, body)
