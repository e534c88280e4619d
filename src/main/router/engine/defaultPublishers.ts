import { MAX_EVENT_API_NAME_LENGTH, SuiteScope } from '../../../shared/ipc/areas/router';

/**
 * PortalDesk's own platform-service publishers (spec 000: default publishers that are platform
 * services; issue 8: data updates = sync runs, file actions = backup downloads, authentication
 * activity = sign-in, refresh, sign-out). The catalogue is ours: the spec shows none.
 */
export const PLATFORM_PUBLISHERS = {
  data_updates: {
    name: 'Data updates',
    service: 'sync',
    events: ['SyncCompleted', 'SyncFailed'],
  },
  file_actions: {
    name: 'File actions',
    service: 'backups',
    events: ['BackupDownloaded'],
  },
  authentication: {
    name: 'Authentication activity',
    service: 'accounts',
    events: ['SignedIn', 'TokenRefreshed', 'SignedOut'],
  },
} as const;

export type PlatformPublisherKey = keyof typeof PLATFORM_PUBLISHERS;
export type PlatformEventName<K extends PlatformPublisherKey> =
  (typeof PLATFORM_PUBLISHERS)[K]['events'][number];

/** Spec 000: the default event scopes of suite publishers (the contract's list). */
export const SUITE_SCOPES = SuiteScope.options;
export type { SuiteScope };

/** The service name in a suite event's `source`. */
export const SUITE_SERVICE = 'projects';

/**
 * A suite event's API name for a module and scope, e.g. `cm_tickets_Create`: the module's API
 * name made to fit the API-name rule (letters, digits, underscores, no leading digit, at most 50
 * characters), then the scope.
 */
export function suiteEventApiName(moduleApiName: string, scope: SuiteScope): string {
  let base = moduleApiName.replace(/[^A-Za-z0-9_]/g, '_');
  if (/^[0-9]/.test(base) || base === '') base = `m_${base}`;
  return `${base.slice(0, MAX_EVENT_API_NAME_LENGTH - scope.length - 1)}_${scope}`;
}

/** The scope a suite event's API name ends with (the inverse of suiteEventApiName), or null. */
export function suiteScopeOf(apiName: string): SuiteScope | null {
  return SUITE_SCOPES.find((scope) => apiName.endsWith(`_${scope}`)) ?? null;
}
