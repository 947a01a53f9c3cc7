// The document's schemas as ajv reads them in the contract mode: one ajv per purpose holding the
// document's components (under the id `spec`), its formats, and unions read as the service's models
// (pydantic) read them.
import {Ajv2020} from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void

type Json = Record<string, unknown>

const uuid4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i

/** `$ref`s into the document's components point at the copy ajv holds under the id `spec`. */
export function rebase(schema: Json): Json {
  return JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/components/', '"$ref":"spec#/components/')) as Json
}

/**
 * The two ajv instances of the contract mode, holding the document's components (read as pydantic reads
 * them, once): one for bodies and answers, types as they are; one for parameters, strings from the URL
 * coerced to the schema's types (`?page=2`, `?id=a` as a list).
 */
export function newAjvs(document: Json): {bodies: Ajv2020; params: Ajv2020} {
  const components = tagged(document.components)
  return {bodies: newAjv(components, false), params: newAjv(components, true)}
}

function newAjv(components: unknown, coerce: boolean): Ajv2020 {
  // verbose: an error names the schema that refused (its title is the service's model name). The code ajv
  // writes is not optimized, and a component is compiled once and called rather than copied into each
  // validator that refers to it: compiling the document's body and answer schemas takes half the time,
  // validating is as fast and its errors read the same. Every test worker compiles the schemas it meets:
  // seconds of the suite's CPU each.
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    verbose: true,
    coerceTypes: coerce ? 'array' : false,
    validateFormats: true,
    code: {optimize: false},
    inlineRefs: false,
  })
  addFormats(ajv)
  ajv.addFormat('uuid4', uuid4)
  // pydantic's IPvAnyAddress and Color: the service's own checks; any string passes here
  ajv.addFormat('ipvanyaddress', true)
  ajv.addFormat('color', true)
  ajv.addKeyword('discriminator')
  ajv.addSchema({$id: 'spec', components}, undefined, undefined, false)
  return ajv
}

/**
 * Unions as the service's models (pydantic) read them. A union with a discriminator and its mapping
 * checks only the member its tag names, so that an error names what is wrong with that member instead of
 * every member's mismatch. A union without one is pydantic's "smart" union: the value must be one of the
 * members, not exactly one (a repeating discount also fits the once-or-forever member, which does not
 * forbid `duration_in_months`): `oneOf` is read as `anyOf`.
 */
function tagged(components: unknown): unknown {
  return JSON.parse(JSON.stringify(components), (_key, value: Json) => {
    const discriminator = value?.discriminator as {propertyName: string; mapping?: Record<string, string>} | undefined
    if (!Array.isArray(value?.oneOf)) return value
    if (!discriminator?.mapping) {
      const {oneOf, discriminator: _, ...rest} = value
      return {...rest, anyOf: oneOf}
    }
    const {oneOf, discriminator: _, ...rest} = value
    const tag = discriminator.propertyName
    const entries = Object.entries(discriminator.mapping)
    // `x-union-tag` marks the checks that become pydantic's union_tag_invalid and union_tag_not_found;
    // `then` here is JSON Schema's keyword, not a thenable
    return {
      ...rest,
      if: {type: 'object'},
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else
      then: {
        required: [tag],
        properties: {[tag]: {enum: entries.map(([v]) => v), 'x-union-tag': tag}},
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then
        allOf: entries.map(([v, ref]) => ({if: {properties: {[tag]: {const: v}}, required: [tag]}, then: {$ref: ref}})),
        'x-union-tag': tag,
      },
      else: {anyOf: oneOf},
    }
  })
}
