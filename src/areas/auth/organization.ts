// Which organization a browser sign-in works on: the one the user has, the one named by
// --organization (id or slug), or the one chosen on a terminal.
import type {ApiClient} from '../../client/client.js'
import {ExitCode, TillError, usageError} from '../../client/till-error.js'
import type {Prompter} from '../../cli/prompt.js'

export interface Organization {
  id: string
  name: string
  slug: string
}

export async function pickOrganization(client: ApiClient, wanted: string | undefined, prompter: Prompter): Promise<Organization> {
  const {items} = await client.get<{items: Organization[]}>('/organizations/', {query: {limit: 100}})
  if (wanted) {
    const found = items.find((o) => o.id === wanted || o.slug === wanted)
    if (!found)
      throw usageError(
        `--organization ${wanted} is none of yours (${items.map((o) => o.slug).join(', ') || 'none'}); nothing was saved`,
        'give the id or slug of one of them',
      )
    return found
  }
  if (items.length === 0)
    throw new TillError('the signed-in user has no organization; nothing was saved', ExitCode.auth, 'create one in the dashboard, then sign in again')
  if (items.length === 1) return items[0]!
  const id = await prompter.select('--organization', 'Organization', async () => items.map((o) => ({name: `${o.name} (${o.slug})`, value: o.id})))
  return items.find((o) => o.id === id)!
}
