import {describe, expect, it} from 'vitest'

import {fishCompletion, type CompletionCommand} from './fish.js'

const COMMANDS: CompletionCommand[] = [
  {
    id: 'products list',
    summary: 'List products.\nMore text.',
    flags: [
      {name: 'limit', summary: 'Items per page', value: true},
      {name: 'profile', char: 'p', summary: 'Profile to use', value: true},
    ],
  },
  {id: 'products get', summary: "Show one product's prices", flags: [{name: 'output', char: 'o', value: true, options: ['table', 'json']}]},
  {id: 'portal orders invoice', summary: 'Fetch an invoice', flags: [{name: 'yes', value: false}]},
]
const TOPICS = {products: 'Products and their prices.', portal: 'The Customer Portal API', 'portal orders': 'Orders'}

describe('fishCompletion', () => {
  const script = fishCompletion('till', COMMANDS, TOPICS)

  it('offers topics at the start and commands after their topic, word by word, with descriptions', () => {
    expect(script).toContain("complete -c till -n '__till_at' -a 'products' -d 'Products and their prices.'")
    expect(script).toContain("complete -c till -n '__till_at products' -a 'list' -d 'List products.'")
    expect(script).toContain("complete -c till -n '__till_at portal' -a 'orders' -d 'Orders'")
    expect(script).toContain("complete -c till -n '__till_at portal orders' -a 'invoice' -d 'Fetch an invoice'")
  })

  it('escapes quotes in descriptions', () => {
    expect(script).toContain("-a 'get' -d 'Show one product\\'s prices'")
  })

  it("completes a command's flags, fixed options, and profile names asked of till", () => {
    expect(script).toContain("complete -c till -n '__till_in products list' -l limit -r -d 'Items per page'")
    expect(script).toContain("complete -c till -n '__till_in products get' -l output -s o -x -a 'table json'")
    expect(script).toContain(
      "complete -c till -n '__till_in products list' -l profile -s p -x -a '(till profiles list -o tsv --columns name --no-input 2>/dev/null)' -d 'Profile to use'",
    )
    expect(script).toContain("complete -c till -n '__till_in portal orders invoice' -l yes")
    expect(script).not.toMatch(/-l yes -r/)
  })

  it('never completes file names where no argument is a file', () => {
    expect(script).toContain('complete -c till -f\n')
  })
})
