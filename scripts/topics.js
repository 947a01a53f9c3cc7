#!/usr/bin/env node
// package.json's oclif.topics (`npm run topics`): the topics of the command line with what each holds, from
// the resource descriptions (`about`, src/client/resources/described.ts) and the other topics
// (src/cli/topics.ts), as built in dist/. Nothing else of package.json changes.
//   --check   write nothing; exit 1 when package.json is not what would be written
import {readFileSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const file = join(root, 'package.json')

/** package.json's text with oclif.topics written from the descriptions. */
export async function packageWithTopics(text = readFileSync(file, 'utf8')) {
  const {topicTree} = await import(pathToFileURL(join(root, 'dist', 'cli', 'topics.js')).href)
  const pkg = JSON.parse(text)
  pkg.oclif.topics = topicTree()
  return `${JSON.stringify(pkg, null, 2)}\n`
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const now = readFileSync(file, 'utf8')
  const next = await packageWithTopics(now)
  if (process.argv.includes('--check')) {
    if (now !== next) {
      console.error('package.json oclif.topics is not current: run npm run topics')
      process.exit(1)
    }
  } else if (now !== next) writeFileSync(file, next)
}
