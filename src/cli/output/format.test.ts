import {describe, expect, it} from 'vitest'

import {TillError} from '../../client/till-error.js'
import {isCurrency} from '../../client/currencies.js'
import {
  cardText,
  colorEnabled,
  csvField,
  formatIso,
  formatMoney,
  formatRelative,
  minorDigits,
  resolveFormat,
  singleLine,
  terminalLines,
  terminalText,
  wrapWords,
} from './format.js'
import {compactDate} from './table.js'

describe('resolveFormat', () => {
  it('defaults to a table on a terminal and tab-separated values when piped', () => {
    expect(resolveFormat({stdoutIsTTY: true})).toBe('table')
    expect(resolveFormat({stdoutIsTTY: false})).toBe('tsv')
  })

  it('takes -o in any case, and --json as -o json', () => {
    expect(resolveFormat({output: 'CSV', stdoutIsTTY: true})).toBe('csv')
    expect(resolveFormat({output: 'jsonl', stdoutIsTTY: false})).toBe('jsonl')
    expect(resolveFormat({output: 'table', stdoutIsTTY: false})).toBe('table')
    expect(resolveFormat({json: true, stdoutIsTTY: true})).toBe('json')
    expect(resolveFormat({json: true, output: 'json', stdoutIsTTY: false})).toBe('json')
  })

  it('rejects unknown formats and --json with another format as usage errors', () => {
    expect(() => resolveFormat({output: 'yaml', stdoutIsTTY: true})).toThrow(/Unknown output format "yaml"/)
    try {
      resolveFormat({output: 'yaml', stdoutIsTTY: true})
    } catch (error) {
      expect(error).toBeInstanceOf(TillError)
      expect((error as TillError).exitCode).toBe(2)
      expect((error as TillError).hint).toBe('Use one of: table, json, jsonl, csv, tsv.')
    }
    expect(() => resolveFormat({json: true, output: 'csv', stdoutIsTTY: true})).toThrow(/--json cannot be combined with --output csv/)
  })
})

describe('colorEnabled', () => {
  const on = (env: Record<string, string | undefined>, isTTY: boolean, flag?: boolean) => colorEnabled({env, isTTY, flag})

  it('colours a terminal only, by default', () => {
    expect(on({}, true)).toBe(true)
    expect(on({}, false)).toBe(false)
    expect(on({TERM: 'dumb'}, true)).toBe(false)
  })

  it('honours NO_COLOR when non-empty', () => {
    expect(on({NO_COLOR: '1'}, true)).toBe(false)
    expect(on({NO_COLOR: ''}, true)).toBe(true)
  })

  it('lets FORCE_COLOR turn colour on when piped, or off, over NO_COLOR', () => {
    expect(on({FORCE_COLOR: '1'}, false)).toBe(true)
    expect(on({FORCE_COLOR: '3'}, false)).toBe(true)
    expect(on({FORCE_COLOR: ''}, false)).toBe(true)
    expect(on({FORCE_COLOR: 'true'}, false)).toBe(true)
    expect(on({FORCE_COLOR: '0'}, true)).toBe(false)
    expect(on({FORCE_COLOR: 'false'}, true)).toBe(false)
    expect(on({FORCE_COLOR: '1', NO_COLOR: '1'}, false)).toBe(true)
    expect(on({FORCE_COLOR: 'whatever'}, true)).toBe(true)
    expect(on({FORCE_COLOR: 'whatever'}, false)).toBe(false)
  })

  it('reads CLICOLOR_FORCE (on when piped, below NO_COLOR) and CLICOLOR=0 (off on a terminal)', () => {
    expect(on({CLICOLOR_FORCE: '1'}, false)).toBe(true)
    expect(on({CLICOLOR_FORCE: '0'}, false)).toBe(false)
    expect(on({CLICOLOR_FORCE: ''}, false)).toBe(false)
    expect(on({CLICOLOR_FORCE: '1', NO_COLOR: '1'}, false)).toBe(false)
    expect(on({CLICOLOR: '0'}, true)).toBe(false)
    expect(on({CLICOLOR: '1'}, false)).toBe(false)
  })

  it('lets --no-color win over everything; --color alone changes nothing', () => {
    expect(on({FORCE_COLOR: '3'}, true, false)).toBe(false)
    expect(on({}, false, true)).toBe(false)
    expect(on({}, true, true)).toBe(true)
  })
})

describe('formatMoney', () => {
  it('puts $ and € before the amount and other codes after it', () => {
    expect(formatMoney(1200, 'usd')).toBe('$12.00')
    expect(formatMoney(2400, 'EUR')).toBe('€24.00')
    expect(formatMoney(1200, 'sek')).toBe('12.00 SEK')
    expect(formatMoney(5, 'usd')).toBe('$0.05')
  })

  it('handles zero and negative amounts', () => {
    expect(formatMoney(0, 'usd')).toBe('$0.00')
    expect(formatMoney(0, 'gbp')).toBe('0.00 GBP')
    expect(formatMoney(-550, 'usd')).toBe('-$5.50')
    expect(formatMoney(-1, 'eur')).toBe('-€0.01')
    expect(formatMoney(-1200, 'sek')).toBe('-12.00 SEK')
  })

  it('uses each currency’s minor units and groups thousands on request', () => {
    expect(formatMoney(1200, 'jpy')).toBe('1200 JPY')
    expect(formatMoney(1234, 'kwd')).toBe('1.234 KWD')
    expect(formatMoney(123456789, 'usd')).toBe('$1234567.89')
    expect(formatMoney(123456789, 'usd', {grouping: true})).toBe('$1,234,567.89')
    expect(formatMoney(-100000, 'eur', {grouping: true})).toBe('-€1,000.00')
    expect(formatMoney(1200, 'xyz')).toBe('12.00 XYZ')
  })

  it('shows a whole amount of a currency the service counts in hundredths but people write whole (ISK, HUF) without decimals', () => {
    expect(formatMoney(500000, 'isk')).toBe('5000 ISK')
    expect(formatMoney(500000, 'isk', {grouping: true})).toBe('5,000 ISK')
    expect(formatMoney(-120000, 'huf')).toBe('-1200 HUF')
    expect(formatMoney(500050, 'isk')).toBe('5000.50 ISK')
    expect(formatMoney(500000, 'sek')).toBe('5000.00 SEK')
  })
})

describe('formatRelative', () => {
  const now = Date.parse('2026-03-01T12:00:00Z')

  it('says how long ago or until, in whole units', () => {
    expect(formatRelative('2026-03-01T09:00:00Z', now)).toBe('3 hours ago')
    expect(formatRelative('2026-03-01T08:01:00Z', now)).toBe('3 hours ago')
    expect(formatRelative('2026-03-03T12:00:00Z', now)).toBe('in 2 days')
    expect(formatRelative('2026-03-01T11:59:00Z', now)).toBe('1 minute ago')
    expect(formatRelative('2026-02-28T12:00:00Z', now)).toBe('1 day ago')
    expect(formatRelative('2026-01-01T12:00:00Z', now)).toBe('1 month ago')
    expect(formatRelative('2023-03-01T12:00:00Z', now)).toBe('3 years ago')
    expect(formatRelative(now + 45 * 60_000, now)).toBe('in 45 minutes')
  })

  it('calls a span of 360 to 364 days a year, never 12 months, in full and in a squeezed table', () => {
    const day = 86_400_000
    for (const days of [360, 364, 365]) {
      expect(formatRelative(now + days * day, now)).toBe('in 1 year')
      expect(formatRelative(now - days * day, now)).toBe('1 year ago')
      expect(compactDate(formatRelative(now + days * day, now))).toBe('in 1y')
    }
    expect(formatRelative(now + 359 * day, now)).toBe('in 11 months')
    expect(formatRelative(now + 729 * day, now)).toBe('in 1 year')
  })

  it('writes what Intl.RelativeTimeFormat writes in English, without loading it', () => {
    const intl = new Intl.RelativeTimeFormat('en', {numeric: 'always'})
    const cases: Array<[Intl.RelativeTimeFormatUnit, number, number[]]> = [
      ['minute', 60_000, [1, 2, 59, -1, -59]],
      ['hour', 3_600_000, [1, 23, -1, -2]],
      ['day', 86_400_000, [1, 29, -1, -11]],
      ['month', 30 * 86_400_000, [1, 11, -1, -2]],
      ['year', 365 * 86_400_000, [1, 2, 1000, -1, -12_345]],
    ]
    for (const [unit, size, counts] of cases) {
      for (const count of counts) expect(formatRelative(now + count * size, now)).toBe(intl.format(count, unit))
    }
  })

  it('says "just now" within a minute and leaves unreadable values alone', () => {
    expect(formatRelative('2026-03-01T11:59:30Z', now)).toBe('just now')
    expect(formatRelative(new Date(now + 10_000), now)).toBe('just now')
    expect(formatRelative('soon', now)).toBe('soon')
  })

  it('keeps the API’s ISO strings untouched when shown in full', () => {
    expect(formatIso('2026-03-01T09:00:00.123456Z')).toBe('2026-03-01T09:00:00.123456Z')
    expect(formatIso(now)).toBe('2026-03-01T12:00:00.000Z')
  })
})

describe('cell text', () => {
  it('quotes csv fields per RFC 4180 only when needed', () => {
    expect(csvField('plain')).toBe('plain')
    expect(csvField('a,b')).toBe('"a,b"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(csvField('two\nlines')).toBe('"two\nlines"')
  })

  it('keeps a value on one line without control characters', () => {
    expect(singleLine('a\tb\r\nc')).toBe('a b c')
    expect(singleLine('red\u001b[31mtext')).toBe('red[31mtext')
  })

  it('shows control characters and those that reorder text escaped, for a terminal', () => {
    expect(terminalText('a\tb\r\nc')).toBe('a b c')
    expect(terminalText('red\u001b[31mtext\u0007')).toBe('red\\x1b[31mtext\\x07')
    expect(terminalText('Ann \u202egnp.exe\u202c \u2066x\u2069 \u200f')).toBe('Ann \\u202egnp.exe\\u202c \\u2066x\\u2069 \\u200f')
    // joiners make emoji and scripts: left alone
    expect(terminalText('\u{1F468}\u200d\u{1F469} caf\u00e9')).toBe('\u{1F468}\u200d\u{1F469} caf\u00e9')
    // several lines: line breaks kept, a carriage return escaped (it would overwrite the line), as is U+202E
    expect(terminalLines('one\ntwo\r\u001b]52;c;aGk=\u0007\u202e\tend')).toBe('one\ntwo\\x0d\\x1b]52;c;aGk=\\x07\\u202e end')
    expect(terminalLines(terminalLines('a\u001bb\u202e'))).toBe('a\\x1bb\\u202e')
  })
})

describe('minorDigits', () => {
  it("matches the runtime's ICU data for every currency the service does not take, in any case", () => {
    for (const code of Intl.supportedValuesOf('currency')) {
      if (isCurrency(code)) continue
      const icu = new Intl.NumberFormat('en', {style: 'currency', currency: code}).resolvedOptions().maximumFractionDigits
      expect([code, minorDigits(code)]).toEqual([code, icu])
    }
    expect([minorDigits('jpy'), minorDigits('kwd'), minorDigits('usd'), minorDigits('XYZ')]).toEqual([0, 3, 2, 2])
  })

  it("is the service's own for the currencies it takes: whole units for its zero-decimal ones, hundredths for ISK, HUF, COP, UGX", () => {
    expect(['isk', 'huf', 'cop', 'ugx', 'twd', 'idr', 'usd'].map((c) => minorDigits(c))).toEqual([2, 2, 2, 2, 2, 2, 2])
    expect(['JPY', 'krw', 'clp', 'vnd', 'xof'].map((c) => minorDigits(c))).toEqual([0, 0, 0, 0, 0])
    expect(formatMoney(1_000_000, 'cop')).toBe('10000 COP')
  })
})

describe('cardText (one way to write a card)', () => {
  it('brand, the last four digits, the expiry when known', () => {
    expect(cardText({brand: 'visa', last4: '4242', exp_month: 2, exp_year: 2030})).toBe('visa ****4242, expires 02/2030')
    expect(cardText({brand: 'mastercard', last4: '4444'})).toBe('mastercard ****4444')
  })
})

describe('wrapWords', () => {
  it('wraps at spaces within the width, later lines indented, a word longer than a line on its own', () => {
    expect(wrapWords('one two three four', 9, '  ')).toBe('one two\n  three\n  four')
    expect(wrapWords('a verylongword b', 6)).toBe('a\nverylongword\nb')
    expect(wrapWords('fits', 4)).toBe('fits')
    expect(wrapWords('no width given at all', undefined)).toBe('no width given at all')
  })

  it('counts terminal cells: a wide character takes two, colours none', () => {
    // 4 wide characters are 8 cells: two of these words do not fit 12
    expect(wrapWords('商品目録 商品目録 x', 12)).toBe('商品目録\n商品目録 x')
    const red = '\u001b[31mred\u001b[39m'
    expect(wrapWords(`${red} ${red} ${red}`, 10)).toBe(`${red} ${red}\n${red}`)
  })

  it('starts the first line at a column of its own (after a label), the others at the indent', () => {
    expect(wrapWords('alpha beta gamma', 16, '    ', 6)).toBe('alpha beta\n    gamma')
    expect(wrapWords('alpha beta', 16, '    ', 6)).toBe('alpha beta')
  })
})
