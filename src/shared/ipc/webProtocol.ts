/**
 * How the contract travels in web mode, shared by the engine's web server and the renderer's web
 * bridge so neither spells a path or a protocol name on its own.
 */

/** `POST /api/call/<request name>` with the JSON argument as body (empty for no argument). */
export const CALL_PATH_PREFIX = '/api/call/';
/** WebSocket endpoint for pushed events; each message is `{"event": name, "payload": ...}`. */
export const EVENTS_PATH = '/api/events';
/** WebSocket clients cannot set headers, so the secret travels as a second subprotocol. */
export const EVENTS_PROTOCOL = 'portaldesk.v1';
export const SECRET_PROTOCOL_PREFIX = 'secret.';
/** The printed URL carries the per-launch secret in its fragment, which browsers never send. */
export const SECRET_FRAGMENT_KEY = 'secret';

export interface PushedEventMessage {
  event: string;
  payload: unknown;
}

export function secretFromProtocols(protocols: Iterable<string>): string | undefined {
  for (const protocol of protocols) {
    if (protocol.startsWith(SECRET_PROTOCOL_PREFIX)) {
      return protocol.slice(SECRET_PROTOCOL_PREFIX.length);
    }
  }
  return undefined;
}

/**
 * `GET /api/backups/file/<token>`: a backup's file, for a browser's download or drag. The token
 * (minted by `backups.downloadLink`) is the credential: a download cannot carry the secret.
 */
export const BACKUP_FILE_PATH_PREFIX = '/api/backups/file/';

/** `GET /api/exports/file/<token>`: a finished records export (`records.exportLink`), the same way. */
export const EXPORT_FILE_PATH_PREFIX = '/api/exports/file/';
