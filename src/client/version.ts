// The dated API version till is built and tested against, sent as `Polar-Version` on every request
// (api-facts §1). A profile's `api_version` or TILL_API_VERSION chooses another.
export const API_VERSION = '2026-04'

/** `YYYY-MM`, the form the service's versions take. */
export const isApiVersion = (value: string) => /^\d{4}-(0[1-9]|1[0-2])$/.test(value)
