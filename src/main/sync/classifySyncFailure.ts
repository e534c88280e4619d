import { ApiError } from '../api/client/apiError';
import { MirrorWriteError } from '../store/mirror/recordRepository';
import { UnsettledPullError } from './settlePull';
import { SyncStopped } from './syncControl';

/**
 * What a failed step means for the sync:
 * - `stopped`: the sync was cancelled or stopped for another reason; the step just ends.
 * - `offline`: no answer from the service (network down, connection refused or reset, timeout).
 * - `signedOut`: the service refused PortalDesk's access even after a refresh: sign in again.
 * - `retry`: the service failed (5xx) after the client's own retries, or its records changed while
 *   they were compared (UnsettledPullError): worth another go later.
 * - `skip`: the service refused (4xx), sent something unreadable, kept a 429 going, or the mirror
 *   refused the write: this module (or portal) fails and the others go on.
 */
export type SyncFailureKind = 'stopped' | 'offline' | 'signedOut' | 'retry' | 'skip';

export function classifySyncFailure(error: unknown): SyncFailureKind {
  if (error instanceof SyncStopped) return 'stopped';
  if (error instanceof DOMException && error.name === 'AbortError') return 'stopped';
  if (error instanceof ApiError) {
    if (error.kind === 'auth') return 'signedOut';
    if (error.kind === 'transient') return error.status === null ? 'offline' : 'retry';
    return 'skip';
  }
  if (error instanceof UnsettledPullError) return 'retry';
  if (error instanceof MirrorWriteError) return 'skip';
  return 'skip';
}

export function failureMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
