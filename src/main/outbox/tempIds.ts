/**
 * Ids of records and comments made offline, until the service gives them theirs (the replayer
 * then remaps them, outbox_remaps).
 */
import { randomBytes } from 'node:crypto';

/** Prefixes of ids made offline: never digits, so never a server id. */
export const TEMP_RECORD_PREFIX = 'tmp-';
export const TEMP_COMMENT_PREFIX = 'tmp-c-';

export const isTempId = (id: string) => id.startsWith(TEMP_RECORD_PREFIX);

export const tempId = (prefix: string) => `${prefix}${randomBytes(8).toString('hex')}`;
