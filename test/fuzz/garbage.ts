// Garbage input files for the fuzz suite: binary, truncated, wrong types, deep nesting, BOM and CRLF,
// broken CSV and YAML (an alias bomb among them), and 2 MiB of one line; and the shape of a request case.
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

/** One malformed HTTP request of a fuzz table (`token: null` sends none; absent, the organization's). */
export interface RawCase {
  name: string
  method: string
  path: string
  token?: string | null
  body?: string
  headers?: Record<string, string>
}

/** Garbage files of every kind, in the sandbox. */
export function garbageFiles(root: string): void {
  mkdirSync(join(root, 'adir'))
  const files: Record<string, string | Buffer> = {
    'bin.dat': Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x80, 0x0a, 0x1b]),
    'trunc.jsonl': '{"name":"api.call","external_customer_id":"c1"',
    'bom-crlf.jsonl': '\ufeff{"name":"fuzz.bom","external_customer_id":"c1"}\r\n{"name":"fuzz.bom","external_customer_id":"c1"}\r\n',
    'types.jsonl': '{"name":5,"external_customer_id":["x"]}\n',
    'deep.jsonl': `{"name":"x","external_customer_id":"c","metadata":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}\n`,
    'empty.csv': '',
    'header-only.csv': 'name,external_customer_id\r\n',
    'bad-columns.csv': 'a,b\n1,2\n',
    'quote.csv': 'name,external_customer_id\n"unterminated,c1\n',
    'catalog-bad.yaml': 'version: 1\nproducts: [unclosed\n',
    'catalog-dup.yaml': 'version: 1\nversion: 1\n',
    'catalog-bomb.yaml': [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...Array.from(
        {length: 11},
        (_, i) =>
          `a${i + 1}: &a${i + 1} [${Array(10)
            .fill(i === 0 ? '*a' : `*a${i}`)
            .join(', ')}]`,
      ),
    ].join('\n'),
    'catalog-deep.yaml': `x: ${'['.repeat(3000)}${']'.repeat(3000)}\n`,
    'catalog-bom.yaml': '\ufeffversion: 1\r\nproducts: {}\r\n',
    'meter-array.json': '[1, 2, 3]',
    'meter-trunc.json': '{"name": "Tokens", "filter": {',
  }
  for (const [name, content] of Object.entries(files)) writeFileSync(join(root, name), content)
  writeFileSync(join(root, 'huge.bin'), Buffer.alloc(2 * 1024 * 1024, 0xf7))
}
