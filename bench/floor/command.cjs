// The floor of the benchmark's start-up case: the least a command on till's stack (oclif and undici) does
// to print one page, built as till is (scripts/bundle-edits.js: the same esbuild options and edits) and
// loaded with the same compile cache. It parses one flag, makes one request and prints a line per item;
// anything more a till command does (its profile, the pace shared with other processes, its output) is
// what it costs over this.
'use strict'
const {Command, Flags, execute} = require('@oclif/core')
const {Agent, request} = require('undici')

class List extends Command {
  static flags = {limit: Flags.integer({default: 10})}

  async run() {
    const {flags} = await this.parse(List)
    const agent = new Agent({connections: 16, maxHeaderSize: 16 * 1024})
    const res = await request(`${process.env.TILL_API_URL}/products/?limit=${flags.limit}`, {
      dispatcher: agent,
      headers: {authorization: `Bearer ${process.env.TILL_TOKEN}`, accept: 'application/json'},
    })
    const page = await res.body.json()
    for (const item of page.items) process.stdout.write(`${item.id}\t${item.name}\n`)
  }
}

/** Runs the command line `argv` with oclif, as till's main does, from `root` (where package.json is). */
const main = (argv, root) => execute({args: argv, loadOptions: {root, pjson: require(`${root}/package.json`)}})

module.exports = {List, main}
