// The flags shared by till's commands: the global ones, output, paging, dry runs and bulk input.
import {Flags} from '@oclif/core'

import {FORMATS} from './output/format.js'
import {usageError} from '../client/till-error.js'

/** The global flags every command takes (they may also come before the command: `till -p sandbox ...`). */
export const globalFlags = {
  profile: Flags.string({char: 'p', description: 'Profile to use (default: the active one).', env: 'TILL_PROFILE', helpGroup: 'GLOBAL'}),
  debug: Flags.boolean({description: 'Trace each request on stderr (tokens redacted) and show stack traces.', env: 'TILL_DEBUG', helpGroup: 'GLOBAL'}),
  'max-wait': Flags.integer({
    description: 'Longest total time in seconds to wait when the API rate limits (then exit 5).',
    default: 120,
    min: 0,
    helpGroup: 'GLOBAL',
  }),
  color: Flags.boolean({
    description: 'Colour output (on a TTY only; NO_COLOR, FORCE_COLOR, CLICOLOR and CLICOLOR_FORCE are honoured).',
    allowNo: true,
    helpGroup: 'GLOBAL',
  }),
  'no-input': Flags.boolean({description: 'Never prompt: fail at once naming the missing flag.', env: 'TILL_NO_INPUT', helpGroup: 'GLOBAL'}),
}

/** Output flags of commands that print resources (`--json` comes from `enableJsonFlag`). */
export const outputFlags = {
  output: Flags.option({char: 'o', options: FORMATS, description: 'Output format (default: table on a terminal, tsv when piped).'})(),
  columns: Flags.string({
    description:
      'Comma-separated fields to show (e.g. id,status,net_amount); dotted paths reach nested fields (customer.email) ' +
      'and, through a list, the field of each element (prices.price_amount). JSON output keeps only these fields.',
  }),
  header: Flags.boolean({allowNo: true, description: 'A header line of column names in csv and tsv output (default: csv yes, tsv no).'}),
  pager: Flags.boolean({
    allowNo: true,
    description: 'Page a detail view longer than the terminal, and with --pager a list too (TILL_PAGER, PAGER, default less -FRX; TILL_PAGER= turns it off).',
  }),
}

/** Paging flags of list commands. */
export const pageFlags = {
  limit: Flags.integer({
    char: 'L',
    description: 'Items per page (default 10 as the API; 100 with --all); over 100, that many items read 100 to a page.',
    min: 1,
  }),
  page: Flags.integer({description: 'Page to read (default 1).', min: 1}),
  all: Flags.boolean({char: 'a', description: 'Read every page, streaming items as they arrive.'}),
  'max-items': Flags.integer({description: 'Stop after this many items.', min: 1}),
}

/** `--dry-run` of commands that change or move money: the preview, then nothing is done. */
export const dryRunFlag = Flags.boolean({description: 'Print what would be done (how many objects; for money, the total) and stop, changing nothing.'})

/** Flags of commands that take ids from stdin (`-`). */
export const bulkFlags = {
  envelope: Flags.boolean({
    description:
      'With ids from stdin (-): print one result per input on stdout ({id, ok, result | error}, in the output format), failures included, instead of the records.',
  }),
}

/**
 * Flags of commands whose ids from stdin are written to: the job's journal (see src/cli/journal.ts) lets a
 * run that was stopped be resumed.
 */
export const bulkWriteFlags = {
  ...bulkFlags,
  resume: Flags.boolean({
    description:
      'With ids from stdin (-): carry on with a run of the same command and input that was stopped, acting only on the ids it did not finish (ok or already done are skipped).',
    exclusive: ['restart'],
  }),
  restart: Flags.boolean({
    description: 'With ids from stdin (-): start over, forgetting what a stopped run of the same command and input did.',
    exclusive: ['resume'],
  }),
}

/** The most items the API gives in one page. */
const PAGE_MAX = 100

type PageFlagValues = {limit?: number; page?: number; all?: boolean; 'max-items'?: number}

/** gh's `--limit 500`: more than a page holds is that many items, read 100 to a page (as --all --max-items 500). */
export function overPage(flags: PageFlagValues): PageFlagValues {
  if (flags.limit === undefined || flags.limit <= PAGE_MAX) return flags
  if (flags.page !== undefined)
    throw usageError(
      `--limit ${flags.limit} reads several pages, so it cannot be given with --page`,
      `a page holds at most ${PAGE_MAX}: --limit ${PAGE_MAX} --page N`,
    )
  return {...flags, limit: PAGE_MAX, all: true, 'max-items': Math.min(flags.limit, flags['max-items'] ?? flags.limit)}
}
