import {readFileSync} from 'node:fs'

import {describe, expect, it} from 'vitest'

import {idFlag} from './id-flags.js'

interface ManifestFlag {
  type: string
  description?: string
}
const manifest = JSON.parse(readFileSync(new URL('../../oclif.manifest.json', import.meta.url), 'utf8')) as {
  commands: Record<string, {flags: Record<string, ManifestFlag>}>
}
const flags = Object.entries(manifest.commands).flatMap(([command, c]) =>
  Object.entries(c.flags)
    .filter(([, f]) => f.type === 'option')
    .map(([name, f]) => ({command, name, description: f.description ?? ''})),
)

/** Flags whose help says they take an id that is no described resource's (or not only an id). */
const OTHER_IDS: Record<string, string> = {
  organization: 'an organization id or slug, when signing in',
  activation: "a license key activation's id: no resource of its own",
  'confirmation-token': "the payment processor's token",
  store: "a Lemon Squeezy store's id",
  id: 'files list --id; webhooks verify --id is the webhook-id header',
  columns: 'field names',
  code: 'a discount code',
  seed: 'a number',
  'provider-subscription-id': "another platform's subscription id (emulator migrate-subscription)",
  'webhook-faults': 'fault rates by name (emulator start); its help names the webhook-id a duplicate keeps',
}

describe('the flags that take ids', () => {
  it("every flag whose help says it takes a resource's id resolves shown prefixes", () => {
    const missed = flags.filter(
      (f) =>
        /\bids?\b/i.test(f.description) &&
        !/external|your own id|external_id/i.test(f.description) &&
        !(f.name in OTHER_IDS) &&
        !f.name.includes('external') &&
        !idFlag(f.name),
    )
    expect(missed.map((f) => `${f.command} --${f.name}`)).toEqual([])
  })

  it('names the resource and the list that shows its ids whole', () => {
    expect(idFlag('order')).toEqual({what: 'order id (--order)', list: 'till orders list'})
    expect(idFlag('payment-method')?.what).toBe('payment method id (--payment-method)')
    expect(idFlag('remove-benefit')?.what).toBe('benefit id (--remove-benefit)')
    expect(idFlag('as-customer-id')?.what).toBe('customer id (--as-customer-id)')
    expect(idFlag('endpoint')?.list).toBe('till webhooks endpoints list')
  })

  it('leaves alone the flags named after a resource that take something else', () => {
    for (const name of ['file', 'metric', 'event', 'event-type', 'organization', 'as-customer', 'external-customer', 'as-member-external-id'])
      expect(idFlag(name), name).toBeUndefined()
  })
})
