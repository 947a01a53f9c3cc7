// What an error message needs to know about where a command's request went: the profile, its environment
// and URL, the kind of token, and what a wrong token most likely is (another environment's, TILL_TOKEN's,
// the emulator's). Never throws: an error is being reported.
import {tokenKind, type ErrorContext} from '../client/errors.js'
import {readConfig} from './config/profiles.js'
import type {Context} from './context.js'

export function errorContextOf(context: Context | undefined, surface: 'core' | 'portal'): ErrorContext {
  try {
    if (!context) return {profile: '?', environment: '?', baseUrl: '?'}
    // the requests of a browser sign-in carry its new tokens, for the profile it signs in to
    const s = context.signingIn
    if (s) return {profile: s.name, environment: s.environment, baseUrl: s.baseUrl, tokenKind: 'oauth', surface, signingIn: true}
    const p = context.profile
    const token = surface === 'portal' ? context.customerToken : p.token
    const sameToken = Object.entries(readConfig(context.configDir).profiles).find(
      ([name, other]) => name !== p.name && other.token === p.token && other.environment !== p.environment,
    )
    return {
      profile: p.name,
      environment: p.environment,
      baseUrl: p.baseUrl,
      tokenKind: tokenKind(token),
      surface,
      otherEnvironment: p.token && sameToken ? {profile: sameToken[0], environment: sameToken[1].environment} : undefined,
      tokenVariable: surface !== 'portal' && p.tokenSource === 'env' ? 'TILL_TOKEN' : undefined,
      emulatorData: surface !== 'portal' && p.tokenSource === 'emulator' ? context.emulatorDataDir : undefined,
    }
  } catch {
    return {profile: '?', environment: '?', baseUrl: '?'}
  }
}
