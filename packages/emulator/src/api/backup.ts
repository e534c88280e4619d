/**
 * Data backup: schedule an export (reusing one made within 24 hours), poll its status, list the
 * history, and download the encrypted ZIP from the emulator's own `/__downloads/` route.
 * Generation is a matter of emulated time (`ready_ms`); the archive itself is built at the first
 * download and kept in `exports.archive`. The download honours single byte ranges (206/416) and
 * `If-Range` against a strong ETag, so an interrupted download can be resumed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { buildPortalArchive } from '../backup/portalArchive';
import {
  exportStatus,
  GENERATION_MS,
  isReusable,
  parseAccessCode,
  parseAttachmentNeeded,
} from '../backup/exportRules';
import { ApiError, apiErrors } from '../http/apiError';
import { contentRange, ifRangeAllows, parseRange, unsatisfiedRange } from '../http/byteRange';
import type { ApiRequest, Route } from '../http/types';
import type { EmulatorState } from '../state';
import {
  bodyObject,
  pageInfo,
  parseId,
  readPage,
  requirePortal,
  userSummary,
  type PortalRow,
} from './common';

const SCOPES = ['PMS.portals.READ', 'PMSFiles.files.READ'] as const;
export const DOWNLOAD_PREFIX = '/__downloads/';

interface ExportRow {
  id: number;
  portal_id: number;
  requested_by: string;
  status: string;
  created_time: string;
  created_ms: number;
  ready_ms: number;
  attachment_needed: number;
  access_code: string;
  download_key: string;
  archive: Buffer | null;
}

/** Columns without the archive, which can be megabytes. */
const COLUMNS = `id, portal_id, requested_by, status, created_time, created_ms, ready_ms,
  attachment_needed, access_code, download_key, NULL AS archive`;

/** The download key: 24 random bytes, 32 URL-safe characters; unguessable. */
const newDownloadKey = () => randomBytes(24).toString('base64url');

function downloadUrl(request: ApiRequest, row: ExportRow): string {
  return `${request.origin}${DOWNLOAD_PREFIX}${row.download_key}.zip`;
}

function exportView(state: EmulatorState, request: ApiRequest, row: ExportRow, nowMs: number) {
  const status = exportStatus(row.ready_ms, nowMs);
  const completed = status === 'completed';
  return {
    id: String(row.id),
    status,
    attachment_needed: row.attachment_needed === 1,
    requested_by: userSummary(state, row.requested_by),
    requested_time: row.created_time,
    completed_time: completed ? new Date(row.ready_ms).toISOString() : null,
    download_url: completed ? downloadUrl(request, row) : null,
  };
}

/**
 * The stored status follows emulated time; updated whenever a backup route looks at it. A backup
 * that completes here has its archive built now, from the portal as it is at completion: a later
 * first download must not pick up what changed after the backup was made.
 */
function settle(state: EmulatorState, portal: PortalRow, nowMs: number): void {
  const completed = state.db
    .prepare(
      `UPDATE exports SET status = 'completed'
       WHERE portal_id = ? AND status = 'in_progress' AND ready_ms <= ?
       RETURNING ${COLUMNS}`,
    )
    .all(portal.id, nowMs) as ExportRow[];
  // A failed build (the emulator closing) is built again at the download.
  for (const row of completed) void archiveOf(state, row, portal).catch(() => undefined);
}

/** The form fields (`application/x-www-form-urlencoded`), or the same keys in a JSON object. */
function exportFields(request: ApiRequest): { accessCode: string; attachmentNeeded: boolean } {
  const contentType = String(request.headers['content-type'] ?? '');
  let fields: Record<string, unknown>;
  if (/application\/json/i.test(contentType)) {
    fields = bodyObject(request);
  } else {
    fields = Object.fromEntries(request.form());
  }
  return {
    accessCode: parseAccessCode(fields.access_code),
    attachmentNeeded: parseAttachmentNeeded(fields.attachment_needed),
  };
}

/** Archives being built, so two downloads at once build it once. Per emulator. */
const building = new WeakMap<EmulatorState, Map<number, Promise<Buffer>>>();

async function archiveOf(state: EmulatorState, row: ExportRow, portal: PortalRow) {
  const stored = state.db.prepare('SELECT archive FROM exports WHERE id = ?').get(row.id) as
    { archive: Buffer | null } | undefined;
  if (stored?.archive) return stored.archive;
  let inFlight = building.get(state);
  if (!inFlight) building.set(state, (inFlight = new Map()));
  let pending = inFlight.get(row.id);
  if (!pending) {
    pending = buildPortalArchive(state, {
      portal,
      exportId: row.id,
      accessCode: row.access_code,
      attachmentNeeded: row.attachment_needed === 1,
      generatedMs: row.ready_ms,
    })
      .then((bytes) => {
        const archive = Buffer.from(bytes);
        // The access code is only needed to encrypt; it is not kept once the archive exists.
        state.db
          .prepare("UPDATE exports SET archive = ?, access_code = '' WHERE id = ?")
          .run(archive, row.id);
        return archive;
      })
      .finally(() => inFlight.delete(row.id));
    inFlight.set(row.id, pending);
  }
  return pending;
}

/** Strong ETags by download key (unique, unlike ids after a reset), computed once per archive. */
const etags = new WeakMap<EmulatorState, Map<string, string>>();

/** `"<export id>-<first 16 hex digits of the archive's SHA-256>"`. */
function etagOf(state: EmulatorState, row: ExportRow, archive: Buffer): string {
  let known = etags.get(state);
  if (!known) etags.set(state, (known = new Map()));
  let etag = known.get(row.download_key);
  if (!etag) {
    const digest = createHash('sha256').update(archive).digest('hex').slice(0, 16);
    etag = `"${row.id}-${digest}"`;
    known.set(row.download_key, etag);
  }
  return etag;
}

function downloadNotFound(): ApiError {
  return new ApiError(
    404,
    'RESOURCE_NOT_FOUND',
    'This backup download does not exist, or its backup is still being generated.',
  );
}

/** A request header as one string (Node joins repeated unknown headers with ", "). */
function header(request: ApiRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

export const backupRoutes: Route[] = [
  {
    method: 'POST',
    template: '/api/v3/portal/{portal_id}/portal_export',
    kind: 'api',
    scopes: SCOPES,
    handle: (request, state) => {
      const portal = requirePortal(state, request);
      const { accessCode, attachmentNeeded } = exportFields(request);
      const now = state.clock.now();
      return state.db.transaction(() => {
        settle(state, portal, now);
        const latest = state.db
          .prepare(
            `SELECT ${COLUMNS} FROM exports WHERE portal_id = ?
             ORDER BY created_ms DESC, id DESC LIMIT 1`,
          )
          .get(portal.id) as ExportRow | undefined;
        if (latest && isReusable(latest.ready_ms, now)) {
          // The earlier backup, with its own access code; the one just sent is not used.
          return {
            status: 200,
            body: { portal_export: exportView(state, request, latest, now), is_reused: true },
          };
        }
        const row: ExportRow = {
          id: state.nextId(),
          portal_id: portal.id,
          requested_by: request.caller?.zpuid ?? '',
          status: 'in_progress',
          created_time: new Date(now).toISOString(),
          created_ms: now,
          ready_ms: now + GENERATION_MS,
          attachment_needed: attachmentNeeded ? 1 : 0,
          access_code: accessCode,
          download_key: newDownloadKey(),
          archive: null,
        };
        state.db
          .prepare(
            `INSERT INTO exports (id, portal_id, requested_by, status, created_time, created_ms,
               ready_ms, attachment_needed, access_code, download_key)
             VALUES (@id, @portal_id, @requested_by, @status, @created_time, @created_ms,
               @ready_ms, @attachment_needed, @access_code, @download_key)`,
          )
          .run({
            id: row.id,
            portal_id: row.portal_id,
            requested_by: row.requested_by,
            status: row.status,
            created_time: row.created_time,
            created_ms: row.created_ms,
            ready_ms: row.ready_ms,
            attachment_needed: row.attachment_needed,
            access_code: row.access_code,
            download_key: row.download_key,
          });
        return {
          status: 202,
          body: { portal_export: exportView(state, request, row, now), is_reused: false },
        };
      })();
    },
  },
  {
    method: 'GET',
    template: '/api/v3/portal/{portal_id}/portal_export/{export_id}/status',
    kind: 'api',
    scopes: SCOPES,
    handle: (request, state) => {
      const portal = requirePortal(state, request);
      const exportId = parseId(request.params.export_id, 'export_id');
      const now = state.clock.now();
      settle(state, portal, now);
      const row = state.db
        .prepare(`SELECT ${COLUMNS} FROM exports WHERE id = ? AND portal_id = ?`)
        .get(exportId, portal.id) as ExportRow | undefined;
      if (!row) throw apiErrors.notFound(`Backup ${exportId}`);
      return { body: { portal_export: exportView(state, request, row, now) } };
    },
  },
  {
    method: 'GET',
    template: '/api/v3/portal/{portal_id}/portal_export/history',
    kind: 'api',
    scopes: SCOPES,
    handle: (request, state) => {
      const portal = requirePortal(state, request);
      const page = readPage(request.query);
      const now = state.clock.now();
      settle(state, portal, now);
      const rows = state.db
        .prepare(
          `SELECT ${COLUMNS} FROM exports WHERE portal_id = ?
           ORDER BY created_ms DESC, id DESC LIMIT ? OFFSET ?`,
        )
        .all(portal.id, page.perPage, page.offset) as ExportRow[];
      const total = (
        state.db
          .prepare('SELECT COUNT(*) AS n FROM exports WHERE portal_id = ?')
          .get(portal.id) as {
          n: number;
        }
      ).n;
      return {
        body: {
          portal_exports: rows.map((row) => exportView(state, request, row, now)),
          page_info: pageInfo(page, total),
        },
      };
    },
  },
  {
    // The download link of a completed backup: no token, the key in the URL is the credential.
    method: 'GET',
    template: `${DOWNLOAD_PREFIX}{file}`,
    kind: 'public',
    handle: async (request, state) => {
      const key = /^([A-Za-z0-9_-]{32})\.zip$/.exec(request.params.file ?? '')?.[1];
      if (!key) throw downloadNotFound();
      const row = state.db
        .prepare(`SELECT ${COLUMNS} FROM exports WHERE download_key = ?`)
        .get(key) as ExportRow | undefined;
      const portal = row
        ? (state.db.prepare('SELECT * FROM portals WHERE id = ?').get(row.portal_id) as
            PortalRow | undefined)
        : undefined;
      // Served by the portal's own data center only, once generation has completed.
      if (
        !row ||
        !portal ||
        portal.dc !== request.dc ||
        exportStatus(row.ready_ms, state.clock.now()) !== 'completed'
      ) {
        throw downloadNotFound();
      }
      // Completed but not yet seen as such by a status call: its archive starts from now.
      settle(state, portal, state.clock.now());
      const archive = await archiveOf(state, row, portal);
      const total = archive.length;
      const etag = etagOf(state, row, archive);
      const headers: Record<string, string> = {
        'Content-Disposition': `attachment; filename="${portal.portal_name}-backup-${row.id}.zip"`,
        'Cache-Control': 'no-store',
        'Accept-Ranges': 'bytes',
        ETag: etag,
      };
      // A Range whose If-Range names another version, or that is malformed or multiple, is
      // ignored: the whole file, 200 (RFC 9110 §14.2, §13.1.5).
      const range = ifRangeAllows(header(request, 'if-range'), etag)
        ? parseRange(header(request, 'range'), total)
        : { kind: 'whole' as const };
      if (range.kind === 'unsatisfiable') {
        throw new ApiError(
          416,
          'INVALID_PARAMETER_VALUE',
          `The requested range is not satisfiable: the file has ${total} bytes.`,
          {
            'Accept-Ranges': 'bytes',
            ETag: etag,
            'Content-Range': unsatisfiedRange(total),
          },
        );
      }
      if (range.kind === 'range') {
        return {
          status: 206,
          raw: archive.subarray(range.start, range.end + 1),
          contentType: 'application/zip',
          headers: { ...headers, 'Content-Range': contentRange(range.start, range.end, total) },
        };
      }
      return { raw: archive, contentType: 'application/zip', headers };
    },
  },
];
