// The topics of till's command line, each with what it holds, as the root help and docs/commands show them.
// A resource's own topic is described beside the resource (`about` in ../client/resources/described.ts);
// the topics below group commands that are not one resource's. package.json's oclif.topics is written
// from both by `npm run topics` (scripts/topics.js), and test/client/described.test.ts fails when it is
// not current or when a topic of the command line is described nowhere.
import {RESOURCES, type ResourceDescription} from '../client/resources/described.js'

/** Topics that are not a resource's own, by their words (`orders invoice`). */
export const COMMAND_TOPICS: Readonly<Record<string, string>> = {
  'checkouts client': 'A checkout as its buyer sees it, by its client secret (no token): show it, change what the buyer may.',
  'emulator clock':
    "The emulator's clock, one per environment: show it, move it forward (renewals, dunning, trials and ends of period settled in time order), put it back.",
  'orders invoice': "Generate and fetch an order's invoice.",
  'portal orders invoice': 'Generate and fetch an invoice, as the customer.',
  auth: 'Sign in through the browser (OAuth2) or with an organization access token, see who you are, sign out.',
  autocomplete: 'Shell completion: setup for bash and zsh (till autocomplete), the fish script (till autocomplete fish).',
  catalog: 'The catalog as code: pull benefits, products and checkout links to a YAML file, plan and apply it to another environment.',
  migrate: "Moving to Polar: convert another billing platform's catalog and customers into files for catalog apply and customers import.",
  emulator:
    'Run the local emulator of the API (production and sandbox on loopback), and make happen what no API call can (renewals, failed payments, disputes, time passing, listener reconnects).',
  portal: 'The Customer Portal API, acting for one customer (TILL_CUSTOMER_TOKEN or --as-customer).',
  profiles: 'Profiles: environments, base URLs, tokens and rate budgets.',
}

export interface TopicEntry {
  description: string
  subtopics?: Record<string, TopicEntry>
}

/** Every topic with what it holds, by its words: `products`, `webhooks endpoints`. */
export function topicDescriptions(): Record<string, string> {
  const topics: Record<string, string> = {...COMMAND_TOPICS}
  for (const resource of RESOURCES as readonly ResourceDescription[]) {
    if (resource.about === undefined) continue
    if (topics[resource.topic] !== undefined) throw new Error(`the topic "${resource.topic}" is described twice (${resource.name})`)
    topics[resource.topic] = resource.about
  }
  return topics
}

/** The topics as package.json's oclif.topics holds them: nested by word, each level sorted by name. */
export function topicTree(): Record<string, TopicEntry> {
  const tree: Record<string, TopicEntry> = {}
  const byName = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0)
  // parents before their subtopics: fewer words first
  const entries = Object.entries(topicDescriptions()).sort(([a], [b]) => a.split(' ').length - b.split(' ').length || (a < b ? -1 : 1))
  for (const [words, description] of entries) {
    const path = words.split(' ')
    let level = tree
    for (const word of path.slice(0, -1)) {
      const parent = level[word]
      if (parent === undefined) throw new Error(`the topic "${words}" is described, "${word}" above it is not`)
      level = parent.subtopics ??= {}
    }
    level[path.at(-1)!] = {description}
  }
  const sorted = (level: Record<string, TopicEntry>): Record<string, TopicEntry> =>
    Object.fromEntries(
      Object.entries(level)
        .sort(byName)
        .map(([name, entry]) => [name, entry.subtopics ? {...entry, subtopics: sorted(entry.subtopics)} : entry]),
    )
  return sorted(tree)
}
