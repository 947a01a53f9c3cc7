// What makes a list's paging go round: a page whose items an earlier page of the same reading had (a page
// number the server ignores, a cursor it keeps giving). Shared by the client's pagination (paginate.ts)
// and the migration sources' (src/areas/migrate/paging.ts). A page is known by its length and its first
// and last items (an item by its `id`, or its JSON when it has none), so memory is one entry per page.

/** What an earlier page held that a new one holds again. */
export interface Repeat {
  /** The earlier page's number, as told to `record`. */
  page: number
  /** The items in words: `the same item, ID` or `the same 100 items, ID to ID`. */
  same: string
}

const identity = (item: unknown): string => {
  const id = (item as {id?: unknown} | null)?.id
  return typeof id === 'string' || typeof id === 'number' ? String(id) : JSON.stringify(item)
}

export class RepeatedPages {
  private readonly pages = new Map<string, number>()

  /** Records a page's items (an empty page is never a repeat); says what repeats when an earlier page had them. */
  record(items: readonly unknown[], page = 0): Repeat | undefined {
    if (items.length === 0) return undefined
    const first = identity(items[0])
    const last = identity(items.at(-1))
    const signature = `${items.length}\u0000${first}\u0000${last}`
    const earlier = this.pages.get(signature)
    if (earlier !== undefined) {
      const shown = (text: string) => (text.length > 60 ? `${text.slice(0, 60)}…` : text)
      const same = items.length === 1 ? `the same item, ${shown(first)}` : `the same ${items.length} items, ${shown(first)} to ${shown(last)}`
      return {page: earlier, same}
    }
    this.pages.set(signature, page)
    return undefined
  }
}
