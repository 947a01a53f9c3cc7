// The dated API versions of the service (SDK 1.0.1 types these three side by side). till
// sends API_VERSION as `Polar-Version` on every request; a profile's `api_version` or TILL_API_VERSION
// chooses another of API_VERSIONS.
/** Every version the service knows, oldest first. */
export const API_VERSIONS = ['2026-04', '2026-10', '2027-01'] as const
export type ApiVersion = (typeof API_VERSIONS)[number]

/** The service's default since 2026-10-01, and what till is built and tested against. */
export const API_VERSION: ApiVersion = '2026-10'

/** A version the service removes, and when (a profile pinned to it is warned, once a day). */
export const RETIRING_VERSIONS: Readonly<Partial<Record<ApiVersion, string>>> = {'2026-04': 'January 2027'}

/** `YYYY-MM`, the form the service's versions take. */
export const isApiVersion = (value: string) => /^\d{4}-(0[1-9]|1[0-2])$/.test(value)

/** One of the versions the service knows. */
export const isKnownApiVersion = (value: string): value is ApiVersion => (API_VERSIONS as readonly string[]).includes(value)

/** What a version setting accepts, for usage errors. */
export const KNOWN_VERSIONS_TEXT = `one of ${API_VERSIONS.join(', ')}`
