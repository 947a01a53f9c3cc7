// A source's list always has an end: its paging is checked as it goes, the same way for every source.
// A cursor (Stripe's `starting_after`, Paddle's `next` link) that was followed already, or a page whose
// items an earlier page of the list had (a Lemon Squeezy page number the source ignores), means the
// source would go round for ever: the run stops with an error naming the list (exit 6) rather than read,
// and grow, without end. Memory stays bounded: one entry per page, not per item (src/client/page-repeat.ts,
// which the API's lists are checked with too).
import {RepeatedPages} from '../../client/page-repeat.js'
import {ExitCode, TillError} from '../../client/till-error.js'

export class PageGuard {
  private readonly cursors = new Set<string>()
  private readonly pages = new RepeatedPages()

  /**
   * @param label the source's name (`Stripe`)
   * @param list the list's path (`/v1/customers`)
   * @param scrub masks the source's key in what an error shows
   */
  constructor(
    private readonly label: string,
    private readonly list: string,
    private readonly scrub: (text: string) => string,
  ) {}

  /** Records a page by its items' ids; throws when an earlier page of the list had the same ones. */
  page(items: ReadonlyArray<{id?: unknown}>): void {
    const repeat = this.pages.record(items)
    if (repeat) throw this.stuck(`sent a page of ${this.list} it had sent before (${repeat.same})`)
  }

  /** Records the cursor of the next page; throws when it was followed before. */
  next(cursor: string): void {
    if (this.cursors.has(cursor)) throw this.stuck(`pointed the next page of ${this.list} at one it had already given (${cursor})`)
    this.cursors.add(cursor)
  }

  private stuck(what: string): TillError {
    return new TillError(
      this.scrub(`${this.label} ${what}: its paging does not advance, so the list would never end`),
      ExitCode.unavailable,
      `nothing was written; run the migration again later, and if it happens again, tell ${this.label}'s support`,
    )
  }
}
