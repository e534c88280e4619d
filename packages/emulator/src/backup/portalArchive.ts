/**
 * The data backup archive: a real ZIP whose entries are AES-256 encrypted with the access code
 * (zip.js, `encryptionStrength: 3`). Large tables are streamed into it in id order, a batch of
 * rows at a time, so a portal with 100k records never sits in memory as one JSON string and the
 * database is not held busy between batches.
 *
 * Entries: portal.json, users.json, modules.json (with fields, options, layouts, sections,
 * statuses and transitions), work_items.json, entities.json, status_timeline.json, comments.json.
 */
import { Uint8ArrayWriter, ZipWriter } from '@zip.js/zip.js';
import { portalDetails } from '../api/portals';
import type { PortalRow } from '../api/common';
import type { EmulatorState } from '../state';

type Db = EmulatorState['db'];
type Row = Record<string, unknown> & { id: number };

/** Rows per read; each batch becomes one chunk of the entry (a few hundred KB at most). */
const BATCH_ROWS = 1000;

export interface ArchiveRequest {
  portal: PortalRow;
  exportId: number;
  accessCode: string;
  attachmentNeeded: boolean;
  /** Emulated epoch ms the archive is dated with. */
  generatedMs: number;
}

const json = (text: string) => JSON.parse(text) as unknown;
const id = (value: unknown) => (value === null || value === undefined ? null : String(value));
const flag = (value: unknown) => value === 1;

/**
 * A JSON array produced batch by batch. `fetch(afterId)` returns the next rows in id order;
 * keyset paging keeps every read short, so other requests run between batches.
 */
function jsonArrayStream(
  fetch: (afterId: number, limit: number) => Row[],
  toJson: (row: Row) => unknown,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let lastId = 0;
  let first = true;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const rows = fetch(lastId, BATCH_ROWS);
      const parts = rows.map((row) => JSON.stringify(toJson(row)));
      let text = (first ? '[' : rows.length > 0 ? ',' : '') + parts.join(',\n');
      first = false;
      const done = rows.length < BATCH_ROWS;
      if (rows.length > 0) lastId = (rows[rows.length - 1] as Row).id;
      if (done) text += ']\n';
      else text += '\n';
      if (text !== '') controller.enqueue(encoder.encode(text));
      if (done) controller.close();
    },
  });
}

/**
 * `sql` takes (module ids as a JSON array, after id, limit). The queries walk their table in
 * rowid order from `afterId` (`NOT INDEXED`, `CROSS JOIN` fixes the loop order), so each batch
 * costs its own rows, not a scan of the whole table.
 */
function keyset(db: Db, sql: string, moduleIds: string) {
  const statement = db.prepare(sql);
  return (afterId: number, limit: number) => statement.all(moduleIds, afterId, limit) as Row[];
}

function usersOf(db: Db, portalId: number) {
  const rows = db
    .prepare(
      `SELECT u.zpuid, u.id, u.email, u.first_name, u.last_name, u.role, u.status, u.is_team_lead,
              u.reports_to, pu.invite_status, pu.is_client_user
       FROM users u JOIN portal_users pu ON pu.zpuid = u.zpuid
       WHERE pu.portal_id = ? ORDER BY u.id`,
    )
    .all(portalId) as Row[];
  // Passwords stay out of the archive.
  return rows.map((row) => ({
    zpuid: row.zpuid,
    id: row.id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    role: row.role,
    status: row.status,
    is_team_lead: flag(row.is_team_lead),
    reports_to: row.reports_to,
    invite_status: row.invite_status,
    is_client_user: flag(row.is_client_user),
  }));
}

/** Module settings are small (tens of modules): read whole, nested per module. */
function modulesOf(db: Db, portalId: number) {
  const all = (sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as Row[];
  return all('SELECT * FROM modules WHERE portal_id = ? ORDER BY id', portalId).map((module) => {
    const fields = all('SELECT * FROM fields WHERE module_id = ? ORDER BY id', module.id);
    const layouts = all('SELECT * FROM layouts WHERE module_id = ? ORDER BY id', module.id);
    const statuses = all(
      'SELECT * FROM statuses WHERE module_id = ? ORDER BY position, id',
      module.id,
    );
    return {
      id: id(module.id),
      api_name: module.api_name,
      singular_name: module.singular_name,
      plural_name: module.plural_name,
      icon_class: module.icon_class,
      is_global_module: flag(module.is_global_module),
      is_all_projects: flag(module.is_all_projects),
      is_overview_needed: flag(module.is_overview_needed),
      is_customized: flag(module.is_customized),
      is_default: flag(module.is_default),
      is_web_tab: flag(module.is_web_tab),
      module_property: { default_layout_type: module.default_layout_type },
      projects: json(module.projects as string),
      state: module.state,
      trashed_time: module.trashed_time,
      created_time: module.created_time,
      fields: fields.map((field) => ({
        id: id(field.id),
        api_name: field.api_name,
        display_name: field.display_name,
        field_type: field.field_type,
        data_type: field.data_type,
        is_default: flag(field.is_default),
        is_mandatory: flag(field.is_mandatory),
        is_renamed: flag(field.is_renamed),
        is_formula_based_list: flag(field.is_formula_based_list),
        field_property: json(field.field_property as string),
        created_time: field.created_time,
        options: all(
          'SELECT * FROM field_options WHERE field_id = ? ORDER BY position, id',
          field.id,
        ).map((option) => ({
          id: id(option.id),
          kind: option.kind,
          value: option.value,
          layout_id: id(option.layout_id),
          position: option.position,
        })),
      })),
      layouts: layouts.map((layout) => ({
        id: id(layout.id),
        name: layout.name,
        type: layout.type,
        reference: layout.reference_id === null ? null : { id: id(layout.reference_id) },
        is_default: flag(layout.is_default),
        created_time: layout.created_time,
        sections: all(
          'SELECT * FROM sections WHERE layout_id = ? ORDER BY position, id',
          layout.id,
        ).map((section) => ({
          id: id(section.id),
          name: section.name,
          position: section.position,
          fields: all(
            'SELECT field_id, position FROM layout_fields WHERE section_id = ? ORDER BY position',
            section.id,
          ).map((placed) => ({ field_id: id(placed.field_id), position: placed.position })),
        })),
      })),
      statuses: statuses.map((status) => ({
        id: id(status.id),
        name: status.name,
        color: status.color,
        is_closed_type: flag(status.is_closed_type),
        is_default: flag(status.is_default),
        layout_id: id(status.layout_id),
        position: status.position,
        transitions: all(
          'SELECT to_status_id FROM status_transitions WHERE from_status_id = ? ORDER BY to_status_id',
          status.id,
        ).map((transition) => ({ id: id(transition.to_status_id) })),
      })),
    };
  });
}

/** Builds the encrypted archive of one portal's data. */
export async function buildPortalArchive(
  state: EmulatorState,
  request: ArchiveRequest,
): Promise<Uint8Array> {
  const { db } = state;
  const portalId = request.portal.id;
  // Includes trashed modules: their records are part of the portal's data too.
  const moduleIds = JSON.stringify(
    (db.prepare('SELECT id FROM modules WHERE portal_id = ?').all(portalId) as Row[]).map(
      (row) => row.id,
    ),
  );
  const lastModDate = new Date(request.generatedMs);
  const writer = new ZipWriter(new Uint8ArrayWriter(), {
    password: request.accessCode,
    // 3 = AES-256.
    encryptionStrength: 3,
    // Compression runs in this thread: Node has no web workers to hand it to.
    useWebWorkers: false,
    lastModDate,
  });
  const text = (value: unknown) =>
    new Blob([JSON.stringify(value, null, 2) + '\n']).stream() as ReadableStream<Uint8Array>;

  await writer.add(
    'portal.json',
    text({
      export: {
        id: String(request.exportId),
        generated_time: lastModDate.toISOString(),
        attachment_needed: request.attachmentNeeded,
      },
      portal_details: portalDetails(state, request.portal),
    }),
  );
  await writer.add('users.json', text(usersOf(db, portalId)));
  await writer.add('modules.json', text(modulesOf(db, portalId)));
  await writer.add(
    'work_items.json',
    jsonArrayStream(
      (afterId, limit) =>
        db
          .prepare('SELECT * FROM work_items WHERE portal_id = ? AND id > ? ORDER BY id LIMIT ?')
          .all(portalId, afterId, limit) as Row[],
      (row) => ({
        id: id(row.id),
        module: row.module,
        name: row.name,
        project: row.project_id === null ? null : { id: id(row.project_id) },
        created_time: row.created_time,
        trashed_time: row.trashed_time,
        trashed_by: row.trashed_by,
      }),
    ),
  );
  await writer.add(
    'entities.json',
    jsonArrayStream(
      keyset(
        db,
        `SELECT e.*, m.api_name AS module_api_name, s.name AS status_name
         FROM entities e NOT INDEXED CROSS JOIN modules m ON m.id = e.module_id
         LEFT JOIN statuses s ON s.id = e.status_id
         WHERE e.module_id IN (SELECT value FROM json_each(?)) AND e.id > ?
         ORDER BY e.id LIMIT ?`,
        moduleIds,
      ),
      (row) => ({
        id: id(row.id),
        module: row.module_api_name,
        name: row.name,
        description: row.description,
        status: { id: id(row.status_id), name: row.status_name },
        layout: { id: id(row.layout_id) },
        project: row.project_id === null ? null : { id: id(row.project_id) },
        is_closed: flag(row.is_closed),
        is_external: flag(row.is_external),
        owner: { zpuid: row.owner_zpuid },
        custom_fields: json(row.custom as string),
        created_time: row.created_time,
        last_updated_time: row.last_updated_time,
        trashed_time: row.trashed_time,
      }),
    ),
  );
  await writer.add(
    'status_timeline.json',
    jsonArrayStream(
      keyset(
        db,
        `SELECT t.* FROM status_timeline t NOT INDEXED CROSS JOIN entities e ON e.id = t.entity_id
         WHERE e.module_id IN (SELECT value FROM json_each(?)) AND t.id > ?
         ORDER BY t.id LIMIT ?`,
        moduleIds,
      ),
      (row) => ({
        id: id(row.id),
        entity_id: id(row.entity_id),
        from_status: row.from_status_id === null ? null : { id: id(row.from_status_id) },
        to_status: { id: id(row.to_status_id) },
        changed_by: row.changed_by,
        changed_time: row.changed_time,
      }),
    ),
  );
  await writer.add(
    'comments.json',
    jsonArrayStream(
      keyset(
        db,
        `SELECT c.* FROM comments c NOT INDEXED CROSS JOIN entities e ON e.id = c.entity_id
         WHERE e.module_id IN (SELECT value FROM json_each(?)) AND c.id > ?
         ORDER BY c.id LIMIT ?`,
        moduleIds,
      ),
      (row) => ({
        id: id(row.id),
        entity_id: id(row.entity_id),
        content: row.content,
        ...(request.attachmentNeeded ? { attachments: json(row.attachments as string) } : {}),
        created_by: row.created_by,
        created_time: row.created_time,
        last_updated_time: row.last_updated_time,
      }),
    ),
  );
  return writer.close();
}
