// Which API operations (method + path) each till command sends, found with the TypeScript compiler
// rather than by matching text, so that no form of call can go unseen:
//   - a request is any call of an ApiClient method that sends one (get, post, patch, put, delete,
//     request), recognised by what the callee resolves to, whatever the receiver is called; a stream
//     opened outside ApiClient (the listen stream) builds its URL with `buildUrl` and counts as a GET; a
//     file that sends with undici or fetch directly without `buildUrl` is reported;
//   - its method and path are evaluated from the source: literals, templates, constants, local helpers
//     (their return expressions), `cond ? a : b`, constant objects (`EXPORTS[kind]`, `routes.path(id)`);
//     a path a function receives as a parameter (listItems, the invoice routes, the CSV exports) is
//     evaluated again at each call of that function, with its arguments, up to the command;
//   - a command reaches the top-level declarations its file refers to, and what those refer to, and so on.
// (A request whose path the user types, as in `till api`, is marked `// api-coverage: any path` and skipped;
// one to another service, a migration source, `// api-coverage: another service`.)
// A request whose path cannot be evaluated is returned in `unresolved` (the report fails on it): a new
// request form shows up as a failure, not as a silently missing operation.
import {createHash} from 'node:crypto'
import {existsSync, mkdirSync, readFileSync, renameSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, relative, sep} from 'node:path'

import ts from 'typescript'

/** The ApiClient methods that send a request to the API (download and uploadPart go to absolute URLs the API handed out). */
const SENDERS = new Set(['get', 'post', 'patch', 'put', 'delete', 'request'])
const MAX_DEPTH = 12
/** The environment of an argument bound when a request was followed up to a caller: the request's own, however many callers up it has gone since. */
const SITE = Symbol('site')

class NeedParam extends Error {
  constructor(symbol) {
    super('parameter')
    this.symbol = symbol
  }
}

class Unresolved extends Error {}

const strip = (node) => {
  while (
    node &&
    (ts.isParenthesizedExpression(node) ||
      ts.isAsExpression(node) ||
      ts.isNonNullExpression(node) ||
      ts.isSatisfiesExpression(node) ||
      ts.isTypeAssertionExpression(node))
  )
    node = node.expression
  return node
}

/** What is in scope of the analysis under `root`: till's sources, not the emulator's nor tests. */
function scope(root) {
  const src = join(root, 'src')
  const inScope = (file) => file.startsWith(src + sep) && !file.startsWith(join(src, 'emulator') + sep) && !file.endsWith('.test.ts') && !file.endsWith('.d.ts')
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'))
      },
    },
  )
  return {src, inScope, parsed}
}

/**
 * The operations each command sends, as `analyse` finds them. The analysis costs seconds of CPU (a whole
 * TypeScript program), and the test suite and the build ask for it several times over unchanged sources:
 * its result is kept under `node_modules/.cache`, keyed by the content of every file in scope, of the
 * TypeScript configuration and of this script.
 */
export function tillOperations(root) {
  const {inScope, parsed} = scope(root)
  const hash = createHash('sha256')
  hash.update(readFileSync(import.meta.filename))
  hash.update(readFileSync(join(root, 'tsconfig.json')))
  for (const file of parsed.fileNames.filter(inScope).sort()) hash.update(`\0${relative(root, file)}\0`).update(readFileSync(file))
  const modules = join(root, 'node_modules')
  const folder = existsSync(modules) ? join(modules, '.cache', 'till-operations') : join(tmpdir(), 'till-operations')
  const file = join(folder, `${hash.digest('hex').slice(0, 32)}.json`)
  if (existsSync(file)) {
    try {
      const kept = JSON.parse(readFileSync(file, 'utf8'))
      return {byCommand: new Map(kept.byCommand.map(([id, ops]) => [id, new Set(ops)])), unresolved: kept.unresolved}
    } catch {
      // a damaged entry is worked out again
    }
  }
  const found = analyse(root)
  mkdirSync(folder, {recursive: true})
  const partial = `${file}.${process.pid}`
  writeFileSync(partial, JSON.stringify({byCommand: [...found.byCommand].map(([id, ops]) => [id, [...ops]]), unresolved: found.unresolved}))
  renameSync(partial, file)
  return found
}

/** The operations each command sends, worked out with the TypeScript compiler (see the top of this file). */
function analyse(root) {
  const {src, inScope, parsed} = scope(root)
  const clientFile = join(src, 'client', 'client.ts')
  const program = ts.createProgram({rootNames: parsed.fileNames.filter(inScope), options: parsed.options})
  const checker = program.getTypeChecker()
  /** The bindings of the request being evaluated (see SITE). */
  let siteEnv = new Map()
  const files = program.getSourceFiles().filter((f) => inScope(f.fileName))

  const symbolOf = (node) => {
    let symbol = checker.getSymbolAtLocation(node)
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol)
    return symbol
  }

  /** The function a callee names (a function declaration, a const arrow, a method), if it has a body. */
  function functionOf(symbol) {
    const decl = symbol?.valueDeclaration
    if (!decl) return undefined
    if ((ts.isFunctionDeclaration(decl) || ts.isMethodDeclaration(decl)) && decl.body) return decl
    if ((ts.isVariableDeclaration(decl) || ts.isPropertyAssignment(decl)) && decl.initializer) {
      const init = strip(decl.initializer)
      if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return init
    }
    return undefined
  }

  /** The object literals an expression stands for. */
  function objectsOf(node, env, depth) {
    node = strip(node)
    if (depth > MAX_DEPTH) throw new Unresolved('too deep')
    if (ts.isObjectLiteralExpression(node)) return [{node, env}]
    if (ts.isIdentifier(node)) {
      const symbol = symbolOf(node)
      if (symbol && env.has(symbol)) {
        const bound = env.get(symbol)
        if (!bound.expr) throw new Unresolved('argument not given')
        return objectsOf(bound.expr, bound.env === SITE ? siteEnv : bound.env, depth + 1)
      }
      const decl = symbol?.valueDeclaration
      if (decl && ts.isParameter(decl)) throw new NeedParam(symbol)
      if (decl && ts.isVariableDeclaration(decl) && decl.initializer && ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const)
        return objectsOf(decl.initializer, env, depth + 1)
    }
    throw new Unresolved(`not a constant object: ${node.getText()}`)
  }

  const propertyNamed = (object, name) =>
    object.properties.find((p) => p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && p.name.text === name)

  /** Binds a function's parameters to the arguments of one call. */
  function bind(fn, args, callerEnv, env) {
    const bound = new Map(env)
    fn.parameters.forEach((param, i) => {
      const symbol = checker.getSymbolAtLocation(param.name)
      if (symbol) bound.set(symbol, args[i] ? {expr: args[i], env: callerEnv} : {expr: param.initializer, env: bound})
    })
    return bound
  }

  /** The values a function returns, for the given arguments. */
  function returns(fn, args, env, depth) {
    const inner = bind(fn, args, env, env)
    if (!ts.isBlock(fn.body)) return evaluate(fn.body, inner, depth + 1)
    const values = new Set()
    const visit = (node) => {
      if (ts.isFunctionLike(node)) return
      if (ts.isReturnStatement(node) && node.expression) for (const v of evaluate(node.expression, inner, depth + 1)) values.add(v)
      ts.forEachChild(node, visit)
    }
    ts.forEachChild(fn.body, visit)
    if (values.size === 0) throw new Unresolved('no value returned')
    return values
  }

  /** The strings an expression can be. Throws NeedParam for an unbound parameter, Unresolved otherwise. */
  function evaluate(node, env, depth = 0) {
    node = strip(node)
    if (depth > MAX_DEPTH) throw new Unresolved('too deep')
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return new Set([node.text])
    if (ts.isTemplateExpression(node)) {
      let values = [node.head.text]
      node.templateSpans.forEach((span, i) => {
        let parts
        try {
          parts = [...evaluate(span.expression, env, depth + 1)]
        } catch (error) {
          // A leading part is a path prefix and must be known; any later one is a path segment (an id).
          if (i === 0 && node.head.text === '' && error instanceof NeedParam) throw error
          if (!(error instanceof NeedParam) && !(error instanceof Unresolved)) throw error
          parts = ['{}']
        }
        values = values.flatMap((v) => parts.map((p) => v + p + span.literal.text))
      })
      return new Set(values)
    }
    if (ts.isConditionalExpression(node)) return new Set([...evaluate(node.whenTrue, env, depth + 1), ...evaluate(node.whenFalse, env, depth + 1)])
    if (ts.isBinaryExpression(node)) {
      const op = node.operatorToken.kind
      if (op === ts.SyntaxKind.PlusToken) {
        const left = [...evaluate(node.left, env, depth + 1)]
        const right = [...evaluate(node.right, env, depth + 1)]
        return new Set(left.flatMap((l) => right.map((r) => l + r)))
      }
      if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken)
        return new Set([...evaluate(node.left, env, depth + 1), ...evaluate(node.right, env, depth + 1)])
    }
    if (ts.isIdentifier(node)) {
      const symbol = symbolOf(node)
      if (symbol && env.has(symbol)) {
        const bound = env.get(symbol)
        if (!bound.expr) throw new Unresolved(`argument not given: ${node.text}`)
        return evaluate(bound.expr, bound.env === SITE ? siteEnv : bound.env, depth + 1)
      }
      const decl = symbol?.valueDeclaration
      if (decl && ts.isParameter(decl)) throw new NeedParam(symbol)
      if (decl && ts.isVariableDeclaration(decl) && decl.initializer && ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const)
        return evaluate(decl.initializer, env, depth + 1)
      throw new Unresolved(`not a constant: ${node.text}`)
    }
    if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
      const values = new Set()
      for (const object of objectsOf(node.expression, env, depth + 1)) {
        let keys
        if (ts.isPropertyAccessExpression(node)) keys = [node.name.text]
        else {
          try {
            keys = [...evaluate(node.argumentExpression, env, depth + 1)]
          } catch (error) {
            if (!(error instanceof Unresolved)) throw error
            keys = undefined // any key: every value of the object
          }
        }
        const props = keys ? keys.map((k) => propertyNamed(object.node, k)) : object.node.properties
        for (const prop of props) {
          if (!prop || !ts.isPropertyAssignment(prop)) throw new Unresolved(`no such property: ${node.getText()}`)
          for (const v of evaluate(prop.initializer, object.env, depth + 1)) values.add(v)
        }
      }
      return values
    }
    if (ts.isCallExpression(node)) {
      const callee = strip(node.expression)
      // `routes.path(id)`: the function is a property of the object `routes` stands for.
      if (ts.isPropertyAccessExpression(callee)) {
        let objects
        try {
          objects = objectsOf(callee.expression, env, depth + 1)
        } catch (error) {
          if (!(error instanceof Unresolved)) throw error
        }
        if (objects) {
          const values = new Set()
          for (const object of objects) {
            const prop = propertyNamed(object.node, callee.name.text)
            const fn = prop && ts.isPropertyAssignment(prop) ? strip(prop.initializer) : undefined
            if (!fn || !(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn))) throw new Unresolved(`not a function: ${callee.getText()}`)
            for (const v of returns(fn, node.arguments, env, depth)) values.add(v)
          }
          return values
        }
      }
      const fn = functionOf(symbolOf(ts.isPropertyAccessExpression(callee) ? callee.name : callee))
      if (fn) return returns(fn, node.arguments, env, depth)
    }
    throw new Unresolved(`cannot evaluate: ${node.getText()}`)
  }

  // ---- the top-level declarations and what each refers to ----

  /** The statement (or variable declarator) at the top of the file that holds `node`. */
  function topLevel(node) {
    while (node.parent && !ts.isSourceFile(node.parent)) {
      if (ts.isVariableDeclaration(node) && ts.isSourceFile(node.parent.parent.parent)) return node
      node = node.parent
    }
    return node
  }

  const refsOf = new Map()
  function references(decl) {
    if (refsOf.has(decl)) return refsOf.get(decl)
    const refs = new Set()
    const visit = (node) => {
      if (ts.isIdentifier(node)) {
        for (const d of symbolOf(node)?.declarations ?? []) {
          const file = d.getSourceFile().fileName
          // A property of an object literal is reached through the object's own name, not through every
          // object of the same shape (the checker can give a property of one literal to another).
          if (ts.isPropertyAssignment(d) || ts.isShorthandPropertyAssignment(d) || ts.isPropertySignature(d)) continue
          if (inScope(file)) refs.add(topLevel(d))
        }
      }
      ts.forEachChild(node, visit)
    }
    visit(decl)
    refs.delete(decl)
    refsOf.set(decl, refs)
    return refs
  }

  // ---- the calls of each function, and the requests ----

  const callsOf = new Map()
  const sites = []
  const rawSenders = []
  for (const file of files) {
    let builds = false
    const raw = []
    const visit = (node) => {
      if (ts.isCallExpression(node)) {
        const callee = strip(node.expression)
        const symbol = symbolOf(ts.isPropertyAccessExpression(callee) ? callee.name : callee)
        const fn = functionOf(symbol)
        if (fn) callsOf.set(fn, [...(callsOf.get(fn) ?? []), node])
        const decl = symbol?.valueDeclaration
        const from = decl?.getSourceFile().fileName ?? ''
        if (file.fileName !== clientFile && from === clientFile && ts.isFunctionDeclaration(decl) && decl.name?.text === 'buildUrl') {
          builds = true
          sites.push({call: node, at: node, method: 'GET', path: node.arguments[1], env: new Map()})
        }
        if (
          file.fileName !== clientFile &&
          ((/[\\/]node_modules[\\/]undici[\\/]/.test(from) && ['request', 'stream', 'fetch', 'pipeline'].includes(symbol?.name)) ||
            (symbol?.name === 'fetch' && from.endsWith('.d.ts')))
        )
          raw.push(node)
        if (
          file.fileName !== clientFile &&
          decl &&
          ts.isMethodDeclaration(decl) &&
          ts.isClassDeclaration(decl.parent) &&
          decl.parent.name?.text === 'ApiClient' &&
          SENDERS.has(symbol.name)
        ) {
          const isRequest = symbol.name === 'request'
          sites.push({
            call: node,
            at: node,
            method: isRequest ? node.arguments[0] : symbol.name.toUpperCase(),
            path: node.arguments[isRequest ? 1 : 0],
            env: new Map(),
          })
        }
      }
      ts.forEachChild(node, visit)
    }
    visit(file)
    if (!builds) rawSenders.push(...raw)
  }

  const where = (node) => {
    const sf = node.getSourceFile()
    return `${relative(root, sf.fileName)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`
  }

  /**
   * A request whose path the user gives (`till api`) reaches no operation in particular; the statement
   * that sends it says so in a comment `api-coverage: any path`.
   */
  function anyPath(node) {
    while (node && !ts.isStatement(node)) node = node.parent
    const text = node.getSourceFile().text
    return (ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []).some((c) => text.slice(c.pos, c.end).includes('api-coverage: any path'))
  }

  /**
   * A request to another service than the API (a migration source: Stripe, Lemon Squeezy, Paddle) is no
   * operation of the document; the statement that sends it says so in a comment `api-coverage: another service`.
   */
  function otherService(node) {
    while (node && !ts.isStatement(node)) node = node.parent
    const text = node.getSourceFile().text
    return (ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []).some((c) => text.slice(c.pos, c.end).includes('api-coverage: another service'))
  }

  /** Operations by the top-level declaration that sends them. */
  const sent = new Map()
  const unresolved = rawSenders
    .filter((node) => !otherService(node))
    .map((node) => `${where(node)}: sends with ${node.expression.getText()} directly; build its URL with buildUrl (client.ts) so that it is counted`)
  const queue = [...sites]
  while (queue.length > 0) {
    const site = queue.shift()
    if (anyPath(site.at)) continue
    siteEnv = site.env
    try {
      const methods = typeof site.method === 'string' ? [site.method] : [...evaluate(site.method, site.env)].map((m) => m.toUpperCase())
      const paths = [...evaluate(site.path, site.env)]
      const decl = topLevel(site.at)
      for (const method of methods)
        for (const path of paths) {
          if (path.includes('/_emulator')) continue // the emulator's control surface, outside the API
          if (!/^\/[a-z]/.test(path)) throw new Unresolved(`not an API path: ${path}`)
          sent.set(decl, [...(sent.get(decl) ?? []), {method, path}])
        }
    } catch (error) {
      if (error instanceof NeedParam) {
        // The path (or method) is a parameter: evaluate it again at each call of that function.
        const fn = error.symbol.valueDeclaration.parent
        const calls = callsOf.get(fn) ?? []
        if (calls.length === 0 || site.hops > MAX_DEPTH)
          unresolved.push(`${where(site.call)}: ${site.path.getText()} comes from a parameter of a function never called directly (${where(fn)})`)
        if (site.hops > MAX_DEPTH) continue
        for (const call of calls) queue.push({...site, at: call, env: bind(fn, call.arguments, SITE, site.env), hops: (site.hops ?? 0) + 1})
      } else if (error instanceof Unresolved) {
        unresolved.push(`${where(site.call)}: ${error.message}${site.at === site.call ? '' : ` (through ${where(site.at)})`}`)
      } else throw error
    }
  }

  // ---- commands ----

  const commandsDir = join(src, 'commands')
  const byCommand = new Map()
  for (const file of files.filter((f) => f.fileName.startsWith(commandsDir + sep))) {
    const id = relative(commandsDir, file.fileName)
      .replace(/\.ts$/, '')
      .replace(/\/index$/, '')
      .split(sep)
      .join(' ')
    const ops = new Set()
    const seen = new Set()
    const stack = [...file.statements]
    while (stack.length > 0) {
      const decl = stack.pop()
      if (seen.has(decl)) continue
      seen.add(decl)
      for (const op of sent.get(decl) ?? []) ops.add(`${op.method} /v1${op.path}`)
      stack.push(...references(decl))
    }
    byCommand.set(id, ops)
  }
  // a derived command is a command like the others: it reaches what every command reaches (the common
  // context: a customer session for --as-customer), and its own operation
  const lists = [...byCommand.values()]
  const common = lists.length === 0 ? [] : [...lists[0]].filter((op) => lists.every((l) => l.has(op)))
  for (const [id, ops] of derivedCommands(program, src)) byCommand.set(id, new Set([...ops, ...common]))
  return {byCommand, unresolved: [...new Set(unresolved)]}
}

/** A string literal's text, or undefined. */
const literal = (node) => (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined)

/** The properties of an object literal by name. */
const propertiesOf = (object) =>
  new Map(object.properties.filter((p) => ts.isPropertyAssignment(p)).map((p) => [literal(p.name) ?? p.name.getText(), strip(p.initializer)]))

/**
 * The commands the resource descriptions derive (src/client/resources/described.ts, `commands`: verb ->
 * operation id), each sending its operation: method and path from the operation table.
 */
function derivedCommands(program, src) {
  const described = program.getSourceFile(join(src, 'client', 'resources', 'described.ts'))
  const table = program.getSourceFile(join(src, 'client', 'operations.generated.ts'))
  if (!described || !table) return []
  const operations = new Map()
  const out = []
  const visit = (node, found) => {
    if (ts.isObjectLiteralExpression(node)) found(node)
    ts.forEachChild(node, (child) => visit(child, found))
  }
  visit(table, (object) => {
    for (const [id, value] of propertiesOf(object)) {
      if (!value || !ts.isObjectLiteralExpression(value)) continue
      const spec = propertiesOf(value)
      const method = literal(spec.get('method'))
      const path = literal(spec.get('path'))
      if (method && path) operations.set(id, `${method} ${path.replace(/\{[^}]+\}/g, '{}')}`)
    }
  })
  visit(described, (object) => {
    const props = propertiesOf(object)
    const topic = literal(props.get('topic'))
    const commands = props.get('commands')
    if (!topic || !commands || !ts.isObjectLiteralExpression(commands)) return
    for (const [verb, op] of propertiesOf(commands)) {
      const sent = operations.get(literal(op))
      if (sent) out.push([`${topic} ${verb}`, new Set([sent])])
    }
  })
  return out
}

// A quick look: `node scripts/till-operations.js [COMMAND ID...]`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const {byCommand, unresolved} = tillOperations(join(import.meta.dirname, '..'))
  const wanted = process.argv.slice(2)
  for (const [id, ops] of byCommand) if (wanted.length === 0 || wanted.includes(id)) console.log(`${id}: ${[...ops].sort().join(', ')}`)
  for (const u of unresolved) console.error(`unresolved: ${u}`)
}
