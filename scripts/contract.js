#!/usr/bin/env node
// The contract (`npm run contract -- FILE_OR_URL`): derives contract/<version>.openapi.json from the
// service's published OpenAPI document, a file or an https URL. Every fact is kept (paths, operations and
// their ids, parameters, request bodies, answers by status, schemas, security schemes and scopes, the
// webhooks); the prose is dropped (descriptions, summaries, examples, external docs, code samples), so the
// repository carries the service's contract and none of its text. The version comes from the document's
// info.version. The facts newer than the document are data beside it (contract/newer.json), kept by hand.
// Writing the file, it prints what changed from the kept one (scripts/contract-changes.js) and records
// which snapshot of the service it came from in contract/snapshots.json (commit and date).
//   --check          write nothing; exit 1 when the file in contract/ differs from what the source gives now
//                    (the derived file is its own source too: deriving it again changes nothing)
//   --commit SHA     the service's commit the document is from (read from a URL that names one)
//   --date DATE      that commit's date, YYYY-MM-DD
//   --out DIR        write there instead of contract/
import {existsSync, readFileSync, renameSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {changes, summary} from './contract-changes.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const CONTRACT_DIR = join(root, 'contract')

/** Keys that hold prose wherever they are a keyword (not a name in a map of names). */
const PROSE = new Set(['description', 'summary', 'example', 'examples', 'externalDocs', 'x-codeSamples', 'termsOfService', 'contact'])

/** Keywords whose value maps names (a property, a path, a status, a media type...) to objects. */
const NAME_MAPS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'paths',
  'webhooks',
  'schemas',
  'responses',
  'parameters',
  'requestBodies',
  'headers',
  'securitySchemes',
  'links',
  'callbacks',
  'pathItems',
  'content',
  'encoding',
  'variables',
])

/**
 * The facts a description states as a list: the least amount of a price per currency (major units, as the
 * document writes them, and the rule for other currencies in minor units), kept as `x-minimum-amounts`.
 */
function factsOf(description) {
  if (typeof description !== 'string' || !description.includes('Minimum amounts per currency:')) return undefined
  const amounts = Object.fromEntries(
    [...description.matchAll(/^- ([A-Z]{3}): ([\d,.]+)$/gm)].map(([, code, value]) => [code.toLowerCase(), value.replaceAll(',', '')]),
  )
  const other = /Other currencies: (\d+) minor units/.exec(description)
  return {amounts, ...(other ? {otherMinor: Number(other[1])} : {})}
}

/** A copy of a node of the document without its prose; `names` when its keys are names, not keywords. */
function strip(node, names = false) {
  if (Array.isArray(node)) return node.map((item) => strip(item))
  if (node === null || typeof node !== 'object') return node
  const out = {}
  const facts = names ? undefined : factsOf(node.description)
  if (facts) out['x-minimum-amounts'] = facts
  for (const [key, value] of Object.entries(node)) {
    if (!names && PROSE.has(key)) continue
    if (names) out[key] = strip(value)
    // a flow's scopes map each scope's name to its prose: the names are the facts
    else if (key === 'scopes' && value && typeof value === 'object' && !Array.isArray(value))
      out[key] = Object.fromEntries(Object.keys(value).map((k) => [k, '']))
    // `parameters` is a list under a path or an operation, a map of names under components
    else out[key] = strip(value, NAME_MAPS.has(key) && !Array.isArray(value))
  }
  return out
}

/** The document as the repository keeps it. */
export function derive(document) {
  const info = document.info ?? {}
  return strip({...document, info: {title: info.title, version: info.version, license: info.license}})
}

/** The text of a derived document (stable: two spaces, a final newline). */
export const text = (document) => `${JSON.stringify(document, null, 2)}\n`

async function read(source) {
  if (/^https?:\/\//.test(source)) {
    const response = await fetch(source)
    if (!response.ok) throw new Error(`${source} answered ${response.status}`)
    return response.json()
  }
  if (!existsSync(source)) throw new Error(`${source}: no such file`)
  return JSON.parse(readFileSync(source, 'utf8'))
}

/** Where each kept document came from: `{version: {repository, path, commit, date}}`. */
export const SNAPSHOTS = 'snapshots.json'

/** The snapshot record of a document written from `source`: the commit and date given, or the URL's commit. */
export function snapshotOf(source, version, given) {
  const commit = given.commit ?? /\/([0-9a-f]{40})\//.exec(source)?.[1] ?? null
  return {repository: 'polarsource/polar', path: `docs/openapi/${version}.openapi.json`, commit, date: given.date ?? null}
}

/** `--name value` of the arguments. */
function option(args, name) {
  const at = args.indexOf(`--${name}`)
  if (at < 0) return undefined
  const value = args[at + 1]
  if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`)
  return value
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2)
  const valued = new Set(['--commit', '--date', '--out'].flatMap((f) => (args.includes(f) ? [args[args.indexOf(f) + 1]] : [])))
  const source = args.find((a) => !a.startsWith('--') && !valued.has(a))
  if (!source) {
    process.stderr.write(
      'usage: npm run contract -- FILE_OR_URL [--check] [--commit SHA --date YYYY-MM-DD] [--out DIR]  (the service publishes docs/openapi/<version>.openapi.json)\n',
    )
    process.exit(2)
  }
  try {
    const given = {commit: option(args, 'commit'), date: option(args, 'date')}
    if (given.commit !== undefined && !/^[0-9a-f]{7,40}$/.test(given.commit)) throw new Error(`--commit must be a commit hash, not "${given.commit}"`)
    if (given.date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(given.date)) throw new Error(`--date must be YYYY-MM-DD, not "${given.date}"`)
    const dir = option(args, 'out') ?? CONTRACT_DIR
    const derived = derive(await read(source))
    const version = derived.info?.version
    if (typeof version !== 'string' || !/^\d{4}-\d{2}$/.test(version)) throw new Error(`${source}: info.version is not an API version (${version})`)
    const target = join(dir, `${version}.openapi.json`)
    const body = text(derived)
    if (args.includes('--check')) {
      const current = existsSync(target) ? readFileSync(target, 'utf8') : ''
      if (current !== body) {
        process.stderr.write(`${target} is not what ${source} gives now: run npm run contract -- ${source}\n`)
        process.exit(1)
      }
    } else {
      const kept = existsSync(target) ? JSON.parse(readFileSync(target, 'utf8')) : undefined
      writeFileSync(`${target}.tmp`, body)
      renameSync(`${target}.tmp`, target)
      const snapshotsFile = join(dir, SNAPSHOTS)
      const snapshots = existsSync(snapshotsFile) ? JSON.parse(readFileSync(snapshotsFile, 'utf8')) : {}
      snapshots[version] = snapshotOf(source, version, given)
      writeFileSync(snapshotsFile, text(snapshots))
      const count = Object.values(derived.paths ?? {}).reduce((n, item) => n + Object.keys(item).filter((m) => m !== 'parameters').length, 0)
      process.stdout.write(`${target}: ${count} operations, ${Object.keys(derived.components?.schemas ?? {}).length} schemas, ${body.length} bytes\n`)
      process.stdout.write(`${kept ? 'changed from the kept document' : 'a new document'}:\n`)
      for (const line of summary(changes(kept, derived))) process.stdout.write(`${line}\n`)
      if (!snapshots[version].commit || !snapshots[version].date)
        process.stderr.write(`note: ${SNAPSHOTS} has no commit or date for ${version}: give them with --commit SHA --date YYYY-MM-DD\n`)
    }
  } catch (error) {
    process.stderr.write(`npm run contract: ${error.message}\n`)
    process.exit(1)
  }
}
