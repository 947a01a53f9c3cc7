// A progress bar (cli-progress) that fits its terminal: the bar takes the room the text leaves, and a
// shorter text is used when the whole one leaves too little, so that no line is cut at the terminal's edge.
import type {GenericFormatter, Options, Params} from 'cli-progress'

import {displayWidth} from './format.js'
import {truncate} from './table.js'

/** The widest a bar gets (cli-progress renders the bar's characters once, for the `barsize` it starts with). */
export const MAX_BAR = 40
/** Under this many cells the bar is not worth showing beside the text. */
const MIN_BAR = 10

/**
 * A `format` for cli-progress: the first of `templates` (longest first) that fits `params.maxWidth` with a
 * bar of at least MIN_BAR cells, its bar as wide as the rest of the line allows (up to the starting
 * `barsize`). `render` is cli-progress's own formatter (`Format.Formatter`).
 */
export function fittedFormat(render: GenericFormatter, templates: string[]): GenericFormatter {
  return (options: Options, params: Params, payload: unknown) => {
    const max = options.barsize ?? MAX_BAR
    const width = params.maxWidth - 1 // the cursor's cell
    for (const [i, format] of templates.entries()) {
      const text = displayWidth(render({...options, format, barsize: 0}, params, payload))
      const room = Math.min(max, width - text)
      if (room >= MIN_BAR) return render({...options, format, barsize: room}, params, payload)
      // the shortest text without a bar, cut to the line: a line longer than the terminal wraps, and a
      // redraw or a clear then reaches only its last row
      if (i === templates.length - 1) return truncate(render({...options, format, barsize: 0}, params, payload), width)
    }
    return ''
  }
}
