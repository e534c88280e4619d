/**
 * The service profile of a running emulator, from the facts it prints with `--json` or returns
 * from `startEmulator()`. Lives in main, not shared: shared knows no emulator.
 */
import { ServiceProfile } from '@portaldesk/portal-api/serviceProfile';

/** The API prefix and scope prefixes the emulator serves (the spec's own). */
const EMULATOR_API_PREFIX = '/api/v3';
const EMULATOR_SCOPE_PREFIXES = { api: 'PMS', files: 'PMSFiles' } as const;
const EMULATOR_LEGACY_AUTH_SCHEME = 'PMS-oauthtoken';

type Addresses = Record<string, { api: string; accounts?: string }>;

/** `--json` output (snake_case) or the `startEmulator()` result (camelCase). */
export type EmulatorFacts =
  | { dcs: Addresses; comment_segment: string; client_secrets?: Record<string, string> }
  | { dcs: Addresses; commentSegment: string; clientSecrets?: Record<string, string> };

export interface EmulatorProfileOptions {
  id?: string;
  name?: string;
  /** Default: on when the data centers have different client secrets (`--multi-dc`). */
  multiDc?: boolean;
}

export function emulatorServiceProfile(
  facts: EmulatorFacts,
  options: EmulatorProfileOptions = {},
): ServiceProfile {
  const segment = 'commentSegment' in facts ? facts.commentSegment : facts.comment_segment;
  const secrets = 'commentSegment' in facts ? facts.clientSecrets : facts.client_secrets;
  const distinctSecrets = new Set(Object.values(secrets ?? {})).size;
  return ServiceProfile.parse({
    id: options.id ?? 'emulator',
    name: options.name ?? 'PortalDesk emulator',
    dataCenters: Object.fromEntries(
      Object.entries(facts.dcs).map(([dc, address]) => [
        dc,
        address.accounts === undefined
          ? { api: address.api }
          : { api: address.api, accounts: address.accounts },
      ]),
    ),
    apiPrefix: EMULATOR_API_PREFIX,
    scopePrefixes: EMULATOR_SCOPE_PREFIXES,
    commentSegment: segment,
    legacyAuthScheme: EMULATOR_LEGACY_AUTH_SCHEME,
    multiDc: options.multiDc ?? distinctSecrets > 1,
  });
}
