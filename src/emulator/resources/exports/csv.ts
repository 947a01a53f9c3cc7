// CSV as the service's exports write it: Python's csv module, excel dialect (CRLF, minimal quoting),
// amounts as floats and times as Python's isoformat.

export type Cell = string | number | null | undefined

/** One value as Python's csv writer renders it: floats with a decimal point, quoted when needed. */
export function cell(value: Cell): string {
  if (value === null || value === undefined) return ''
  const text = typeof value === 'number' ? (Number.isInteger(value) ? value.toFixed(1) : String(value)) : value
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** One CSV line, ended by CRLF (the excel dialect). */
export const csvRow = (values: Cell[]) => `${values.map(cell).join(',')}\r\n`

/** A UTC time as Python's `isoformat()` renders it: microseconds only when there are some. */
export function pyIso(iso: string | null): string | null {
  if (!iso) return null
  const d = new Date(iso)
  const ms = d.getUTCMilliseconds()
  return `${d.toISOString().slice(0, 19)}${ms ? `.${String(ms * 1000).padStart(6, '0')}` : ''}+00:00`
}
