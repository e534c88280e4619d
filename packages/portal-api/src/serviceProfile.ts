/**
 * A service profile: everything that differs between one deployment of the service and another
 * (the embedded emulator, the real service): the accounts and API addresses per data center, the
 * API path prefix, the scope prefixes, the comment segment and the older auth scheme's name.
 * Nothing else hardcodes a host, a data center or a prefix.
 */
import { z } from 'zod';
import { boundedRecord } from './json/boundedRecord';

/** An http(s) origin such as `https://api.example.com`; a trailing slash is dropped. */
const ServerAddress = z
  .string()
  .regex(/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/, 'an http(s) address without query or fragment')
  // fetch refuses such an address, and the profile is stored where nothing secret goes.
  .refine(
    (value) => !/^https?:\/\/[^/?#]*@/.test(value),
    'an http(s) address without a user name or password',
  )
  .transform((value) => value.replace(/\/+$/, ''));

/**
 * One data center's servers: `{base_url}` (the API) and `{accounts_url}` (the authorization
 * server). "UAE (API only), SG (API only)": those have no accounts server.
 */
export const DataCenterAddresses = z.object({
  api: ServerAddress,
  accounts: ServerAddress.optional(),
  /** Shown to the user, e.g. "Europe"; the key (`eu`) when absent. */
  label: z.string().min(1).optional(),
});
export type DataCenterAddresses = z.output<typeof DataCenterAddresses>;

/** Data-center keys as the token response's `location` names them (`us`, `eu`, `uae`, ...). */
export const DataCenterKey = z.string().regex(/^[a-z][a-z0-9-]{0,15}$/, 'a lower-case key');

/** Ours: data centers one profile lists (the service has about ten). */
export const MAX_DATA_CENTERS = 64;

export const ServiceProfile = z.object({
  /** Stable key, e.g. `emulator` or `service`: stored with tokens, budgets and mirrored data. */
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/),
  name: z.string().min(1),
  dataCenters: boundedRecord(
    DataCenterKey,
    DataCenterAddresses,
    MAX_DATA_CENTERS,
    `at most ${MAX_DATA_CENTERS} data centers`,
  ).refine((dcs) => Object.keys(dcs).length > 0, 'at least one data center'),
  /** "Version 3 (prefix /api/v3)". */
  apiPrefix: z.string().regex(/^(\/[A-Za-z0-9._~-]+)+$/, 'a path such as /api/v3'),
  /** "that prefix is written as PMS (and PMSFiles for the file service)". */
  scopePrefixes: z.object({
    api: z.string().regex(/^[A-Za-z][A-Za-z0-9_-]*$/),
    files: z.string().regex(/^[A-Za-z][A-Za-z0-9_-]*$/),
  }),
  /** "a fixed literal text segment containing a space, used as-is" (percent-encoded in URLs). */
  commentSegment: z
    .string()
    .min(1)
    .refine((value) => !value.includes('/'), 'one path segment, without a slash'),
  /** "The earlier form of the header used a vendor-named scheme (<vendor>-oauthtoken <token>)". */
  legacyAuthScheme: z.string().regex(/^[A-Za-z][A-Za-z0-9._-]*$/),
  /** "Multi-DC support must be enabled for the client to generate tokens in any data center". */
  multiDc: z.boolean(),
});
export type ServiceProfile = z.output<typeof ServiceProfile>;

/** The two scope families of the spec: the API's (`PMS.*`) and the file service's (`PMSFiles.*`). */
export type ScopeService = keyof ServiceProfile['scopePrefixes'];

function dataCenter(profile: ServiceProfile, dc: string): DataCenterAddresses {
  const found = Object.hasOwn(profile.dataCenters, dc) ? profile.dataCenters[dc] : undefined;
  if (!found) {
    throw new Error(
      `The service profile "${profile.name}" has no data center "${dc}"; it knows ${Object.keys(profile.dataCenters).join(', ')}. Sign in again so PortalDesk learns your data center.`,
    );
  }
  return found;
}

/** `{base_url}/api/v3`: where every API path of this data center starts. */
export function apiBaseUrl(profile: ServiceProfile, dc: string): string {
  return `${dataCenter(profile, dc).api}${profile.apiPrefix}`;
}

/** `{accounts_url}`, or undefined for an API-only data center. */
export function accountsUrl(profile: ServiceProfile, dc: string): string | undefined {
  return dataCenter(profile, dc).accounts;
}

/** `PMS.portals.READ` from ('api', 'portals', 'READ'), with this profile's prefix. */
export function scopeName(
  profile: ServiceProfile,
  service: ScopeService,
  name: string,
  operation: string,
): string {
  return `${profile.scopePrefixes[service]}.${name}.${operation}`;
}
