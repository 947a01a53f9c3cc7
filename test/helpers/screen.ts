// What a terminal shows once it has been sent `text`: a small model of one, enough for what till and its
// libraries write (characters with wrapping at the edge, CR, LF, backspace, cursor moves, line erases).
// Colours and modes are ignored. For tests that check a screen is not garbled (a progress bar drawn over a
// line, a picker left behind).

/** The lines of a `cols`-wide terminal after `text` (trailing spaces removed, trailing empty lines too). */
export function renderScreen(text: string, cols: number): string[] {
  const lines: string[][] = [[]]
  let row = 0
  let col = 0
  let pendingWrap = false
  const line = () => (lines[row] ??= [])
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (ch === '\x1b') {
      const csi = /^\x1b\[([?\d;]*)([A-Za-z])/.exec(text.slice(i))
      if (!csi) {
        // another escape (a charset, OSC...): skipped with its next character
        i++
        continue
      }
      i += csi[0].length - 1
      const n = Number(csi[1]!.split(';')[0] || '0')
      switch (csi[2]) {
        case 'A':
          row = Math.max(0, row - Math.max(1, n))
          break
        case 'B':
          row += Math.max(1, n)
          break
        case 'C':
          col = Math.min(cols - 1, col + Math.max(1, n))
          break
        case 'D':
          col = Math.max(0, col - Math.max(1, n))
          break
        case 'G':
          col = Math.max(0, Math.max(1, n) - 1)
          break
        case 'K':
          if (n === 0) line().length = Math.min(line().length, col)
          else if (n === 2) lines[row] = []
          else for (let c = 0; c <= col; c++) line()[c] = ' '
          break
        case 'J':
          if (n === 0) {
            line().length = Math.min(line().length, col)
            lines.length = row + 1
          } else if (n === 2) {
            lines.length = 0
            lines.push([])
            row = 0
          }
          break
        case 'H': {
          const [r, c] = csi[1]!.split(';').map((x) => Number(x || '1'))
          row = (r ?? 1) - 1
          col = (c ?? 1) - 1
          break
        }
        default:
          break
      }
      pendingWrap = false
      continue
    }
    if (ch === '\r') {
      col = 0
      pendingWrap = false
    } else if (ch === '\n') {
      row++
      line()
      pendingWrap = false
    } else if (ch === '\b') {
      col = Math.max(0, col - 1)
      pendingWrap = false
    } else if (ch >= ' ') {
      if (pendingWrap) {
        row++
        col = 0
        pendingWrap = false
      }
      const l = line()
      while (l.length < col) l.push(' ')
      l[col] = ch
      if (col === cols - 1) pendingWrap = true
      else col++
    }
  }
  const shown = Array.from({length: lines.length}, (_, r) => (lines[r] ?? []).join('').replace(/\s+$/, ''))
  while (shown.length > 0 && shown.at(-1) === '') shown.pop()
  return shown
}
