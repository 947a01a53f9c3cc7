// How deeply a parsed JSON value nests, measured without recursion (so a hostile input cannot overflow
// the stack while it is measured). Used to refuse such input before it is sent or echoed.

/** Depth of arrays and objects in `value`, walked without recursion; stops counting past `limit`. */
export function nestingDepth(value: unknown, limit: number): number {
  let deepest = 0
  const stack: Array<[unknown, number]> = [[value, 0]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    if (node === null || typeof node !== 'object') continue
    const level = depth + 1
    if (level > deepest) deepest = level
    if (deepest > limit) return deepest
    for (const child of Object.values(node)) stack.push([child, level])
  }
  return deepest
}
