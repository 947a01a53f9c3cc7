// What many catalog objects and entries have alike, held once: a word that repeats ("usd", "public",
// "month") as one string, and an empty list or map as one shared, frozen value. A catalog of 60,000
// products held these once per product, most of what an object or an entry took.

const EMPTY_LIST = Object.freeze([])
const EMPTY_MAP = Object.freeze({})

/** An empty list or map as the one shared (frozen) one; any other value as it is. */
export function shared<T>(value: T): T {
  if (Array.isArray(value)) return (value.length === 0 ? EMPTY_LIST : value) as T
  if (value !== null && typeof value === 'object' && Object.keys(value).length === 0) return EMPTY_MAP as T
  return value
}

/** The strings of one read, each held once: `word` gives back the first string equal to its value. */
export class Words {
  private readonly known = new Map<string, string>()

  word<T>(value: T): T {
    if (typeof value !== 'string') return value
    const known = this.known.get(value)
    if (known !== undefined) return known as T
    this.known.set(value, value)
    return value
  }
}
