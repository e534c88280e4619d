/**
 * Fills a data directory's mirror for the records workspace's end-to-end test and UI benchmark
 * (test/e2e/records.spec.ts, bench/ui.mjs): the app's Store (every migration) with one portal of
 * the demo account, an `assets` module with every custom field type (the seed catalog's), its
 * layout, statuses and options, UI_MIRROR_RECORDS records written with the Mirror API in bulk,
 * comments and status timelines on the first records, one record in the recycle bin, ten records
 * named longer than the sidebar, a second, small module without records, and the five built-in
 * modules. Run through vitest (the mirror imports its SQL with Vite's `?raw`):
 *
 *   UI_MIRROR_DIR=/tmp/dir UI_MIRROR_RECORDS=1000000 \
 *     node node_modules/vitest/vitest.mjs run --config bench/vitest.bench.mts bench/uiMirror.bench.ts
 *
 * The values come from bench/syntheticRecords.ts (as in bench/store.bench.ts, deterministic), so
 * every fill of the same size holds the same records. Asserts nothing.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { it } from 'vitest';
import { COMMENT_LINES, MODULES, type SeedField } from '@portaldesk/emulator/model/seedCatalog';
import { Mirror } from '../src/main/store/mirror/mirror';
import type { MirrorRecord } from '../src/main/store/mirror/mirrorTypes';
import { Store } from '../src/main/store/store';
import {
  ANCHOR,
  ASSETS,
  DAY_MS,
  LAYOUT,
  MODULE,
  PORTAL,
  STATUS_IDS,
  ZPUIDS,
  customFieldId,
  generator,
  record,
  recordId,
  writeMetadata,
} from './syntheticRecords';

const DIR = process.env.UI_MIRROR_DIR;
const RECORDS = Number(process.env.UI_MIRROR_RECORDS ?? 3000);
/** Records written per transaction: large batches are what a bulk import does. */
const BATCH = 5000;
/** Records with comments and a status timeline (comments cost a transaction per record). */
const WITH_COMMENTS = Math.min(RECORDS, 500);

export { MODULE, PORTAL };
export const SMALL_MODULE = '1000000000005';
/**
 * The product's built-in modules, as a sync stores them (`is_default`): the records workspace names
 * them without listing them as empty.
 */
const BUILT_IN_MODULES = ['projects', 'phases', 'tasklists', 'tasks', 'issues'];
/**
 * The last records get names longer than any sidebar, for the "recently viewed" list; they sort
 * between the others by name ("Conference…").
 */
const LONG_NAMED = 10;
const longName = (ordinal: number) =>
  `Conference room projector with ceiling mount, HDMI switcher and spare lamp, east wing #${ordinal}`;

const VENDORS = MODULES[1]!;

const systemField = (id: string, apiName: string, label: string, type: string) => ({
  id,
  apiName,
  displayName: label,
  fieldType: type,
  dataType: type,
  isDefault: true,
  isMandatory: apiName === 'name',
  fieldProperty: {},
  createdTime: null,
});

function mirrorMetadata(mirror: Mirror): void {
  const system = [
    systemField('1000000000090', 'name', 'Asset name', 'single_line'),
    systemField('1000000000091', 'description', 'Description', 'multi_line'),
    systemField('1000000000092', 'status', 'Status', 'status'),
    systemField('1000000000093', 'owner', 'Owner', 'user_pick_list'),
    systemField('1000000000094', 'project', 'Project', 'project'),
  ];
  writeMetadata(mirror, {
    accountId: 'admin@portaldesk.demo',
    otherModules: [{ id: SMALL_MODULE, seed: VENDORS }],
    systemFields: system,
  });
  mirror.metadata.upsertModules(
    PORTAL,
    BUILT_IN_MODULES.map((apiName, i) => ({
      id: `100000000007${i}`,
      apiName,
      singularName: apiName[0]!.toUpperCase() + apiName.slice(1, -1),
      pluralName: apiName[0]!.toUpperCase() + apiName.slice(1),
      iconClass: `icon-${apiName}`,
      isActive: true,
      isDefault: true,
      createdTime: null,
      details: {},
    })),
  );
  mirror.metadata.replaceLayouts(PORTAL, MODULE, [
    {
      id: LAYOUT,
      name: 'Standard',
      type: 'public',
      isDefault: true,
      referenceId: null,
      createdTime: null,
    },
  ]);
  const placed = (section: SeedField['section']) =>
    ASSETS.fields
      .map((field, i) => ({ field, id: customFieldId(i) }))
      .filter(({ field }) => field.section === section)
      .map(({ id }, position) => ({ fieldId: id, position: position + 1 }));
  mirror.metadata.replaceSections(PORTAL, LAYOUT, [
    {
      id: '1000000000081',
      name: 'Overview',
      position: 1,
      fields: system.map((f, position) => ({ fieldId: f.id, position: position + 1 })),
    },
    { id: '1000000000082', name: 'Details', position: 2, fields: placed('Details') },
    { id: '1000000000083', name: 'Tracking', position: 3, fields: placed('Tracking') },
  ]);
}

it('fills the records workspace mirror', () => {
  if (!DIR) throw new Error('Set UI_MIRROR_DIR to the data directory to fill.');
  const started = performance.now();
  const store = Store.open({ dataDir: DIR, mode: 'fill' });
  try {
    const mirror = new Mirror(store.db, { now: () => ANCHOR });
    mirrorMetadata(mirror);
    for (let first = 1; first <= RECORDS; first += BATCH) {
      const batch: MirrorRecord[] = [];
      for (let i = first; i < Math.min(RECORDS + 1, first + BATCH); i++) {
        batch.push(i > RECORDS - LONG_NAMED ? { ...record(i), name: longName(i) } : record(i));
      }
      mirror.records.upsertRecords(batch);
    }
    // One record in the recycle bin: lists leave it out, its detail says so.
    mirror.records.upsertRecords([
      {
        ...record(RECORDS + 1),
        name: 'Retired projector in the bin',
        trashedTime: '2026-03-01T09:30:00.000Z',
      },
    ]);
    for (let i = 1; i <= WITH_COMMENTS; i++) {
      const id = recordId(i);
      // Every third record keeps its comments unread, for "fetch now".
      if (i % 3 === 0) continue;
      const random = generator(i + 7);
      mirror.comments.replaceRecordComments(
        PORTAL,
        id,
        Array.from({ length: random.int(1, 3) }, (_, j) => ({
          id: `${id}${j}`,
          content: random.pick(COMMENT_LINES),
          attachmentIds: j === 0 && i % 2 === 0 ? [`${id}90`, `${id}91`] : [],
          createdBy: random.pick(ZPUIDS),
          createdTime: new Date(ANCHOR - (3 - j) * DAY_MS).toISOString(),
          lastUpdatedTime: new Date(ANCHOR - (3 - j) * DAY_MS).toISOString(),
        })),
      );
      mirror.comments.replaceStatusTimeline(PORTAL, id, [
        {
          id: `${id}1`,
          fromStatusId: STATUS_IDS[0]!,
          toStatusId: STATUS_IDS[1]!,
          changedBy: random.pick(ZPUIDS),
          changedTime: new Date(ANCHOR - 10 * DAY_MS).toISOString(),
        },
      ]);
    }
  } finally {
    store.close();
  }
  writeFileSync(
    path.join(DIR, 'ui-mirror.json'),
    JSON.stringify({
      records: RECORDS,
      // The schema it was filled with: bench/uiMirrorDir.mjs fills it again when the app has more.
      schemaVersion: store.schemaVersion,
      portal: PORTAL,
      module: MODULE,
      ms: Math.round(performance.now() - started),
    }),
  );
});
