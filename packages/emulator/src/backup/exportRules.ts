/**
 * Data backup decisions as pure functions of emulated time: how long generation takes, when an
 * earlier backup is reused, and what a valid access code and attachment flag look like.
 */
import {
  ACCESS_CODE_MAX,
  ACCESS_CODE_MIN,
  accessCodeProblem,
} from '@portaldesk/portal-api/domain/backupRequest';
import { apiErrors } from '../http/apiError';

export { ACCESS_CODE_MAX, ACCESS_CODE_MIN };

/** "an existing backup made within the last 24 hours is returned instead of a new one". */
export const BACKUP_REUSE_MS = 24 * 3_600_000;
/**
 * How long generation takes, in emulated time (not shown in the spec; ours). `--time-scale`
 * shortens it like every other duration: at 60, two real seconds.
 */
export const GENERATION_MS = 2 * 60_000;

export type ExportStatus = 'in_progress' | 'completed';

export function exportStatus(readyMs: number, nowMs: number): ExportStatus {
  return nowMs >= readyMs ? 'completed' : 'in_progress';
}

/**
 * A backup counts as "made within the last 24 hours" while it is generating and for 24 hours
 * after its generation completed.
 */
export function isReusable(readyMs: number, nowMs: number): boolean {
  return nowMs < readyMs + BACKUP_REUSE_MS;
}

/** 8-64 characters, no control characters; it becomes the archive's AES-256 password. */
export function parseAccessCode(value: unknown): string {
  if (value === undefined || value === null || value === '') {
    throw apiErrors.invalidParameter('access_code is required.');
  }
  if (typeof value !== 'string') throw apiErrors.invalidParameter('access_code must be a string.');
  // The same rule the app applies before it asks (portal-api's backupRequest.ts), in the
  // service's words.
  const length = [...value].length;
  if (length < ACCESS_CODE_MIN) {
    throw apiErrors.invalidParameter(`access_code is shorter than ${ACCESS_CODE_MIN} characters.`);
  }
  if (length > ACCESS_CODE_MAX) {
    throw apiErrors.invalidParameter(`access_code is longer than ${ACCESS_CODE_MAX} characters.`);
  }
  if (accessCodeProblem(value)) {
    throw apiErrors.invalidParameter('access_code must not contain control characters.');
  }
  return value;
}

/**
 * `attachment_needed` (purpose and type not shown; ours): `true` puts each comment's attachment
 * list into the archive, `false` (the default) leaves attachments out. Form fields are text, so
 * 'true'/'false' are accepted as well as JSON booleans.
 */
export function parseAttachmentNeeded(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw apiErrors.invalidParameter(
    `attachment_needed must be true or false, not ${JSON.stringify(value)}.`,
  );
}
