/**
 * Fills a data directory's mirror for the records workspace's end-to-end test and UI benchmark
 * (test/e2e/records.spec.ts, bench/ui.mjs): the app's Store (every migration) with one portal of
 * the demo account, an `assets` module with every custom field type (the seed catalog's), its
 * layout, statuses and options, UI_MIRROR_RECORDS records written with the Mirror API in bulk,
 * comments and status timelines on the first records, one record in the recycle bin, and a
 * second, small module. Run through vitest (the mirror imports its SQL with Vite's `?raw`):
 *
 *   UI_MIRROR_DIR=/tmp/dir UI_MIRROR_RECORDS=1000000 \
 *     node node_modules/vitest/vitest.mjs run --config bench/vitest.bench.mts bench/uiMirror.bench.ts
 *
 * The values follow bench/store.bench.ts's generator (copied, deterministic), so every fill of
 * the same size holds the same records. Asserts nothing.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { it } from 'vitest';
import type { CustomFieldType } from '../src/shared/domain/customFieldTypes';
import {
  COMMENT_LINES,
  CURRENCIES,
  MODULES,
  PEOPLE,
  SENTENCES,
  type SeedField,
} from '../src/emulator/model/seedCatalog';
import { Mirror } from '../src/main/store/mirror/mirror';
import type { MirrorRecord } from '../src/main/store/mirror/mirrorTypes';
import { Store } from '../src/main/store/store';

const DIR = process.env.UI_MIRROR_DIR;
const RECORDS = Number(process.env.UI_MIRROR_RECORDS ?? 3000);
/** Records written per transaction: large batches are what a bulk import does. */
const BATCH = 5000;
/** Records with comments and a status timeline (comments cost a transaction per record). */
const WITH_COMMENTS = Math.min(RECORDS, 500);

export const PORTAL = '1000000000001';
export const MODULE = '1000000000002';
export const SMALL_MODULE = '1000000000005';
const LAYOUT = '1000000000003';
const DAY_MS = 86_400_000;
const ANCHOR = Date.parse('2026-03-05T00:00:00.000Z');

const ASSETS = MODULES[0]!;
const VENDORS = MODULES[1]!;
const ZPUIDS = PEOPLE.map((_, i) => String(4_000_000_000 + i));
const STATUS_IDS = ASSETS.statuses.map((_, i) => String(2_000_000_000 + i));

/** Deterministic numbers (mulberry32), as in bench/store.bench.ts. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  return { next, int, pick, chance: (p: number) => next() < p };
}

type Random = ReturnType<typeof generator>;

function value(random: Random, field: SeedField, created: number): unknown {
  const type: CustomFieldType = field.type;
  const user = () => {
    const i = random.int(0, PEOPLE.length - 1);
    return { zpuid: ZPUIDS[i], name: PEOPLE[i]!.join(' ') };
  };
  switch (type) {
    case 'single_line':
      return `SN-${random.int(10_000_000, 99_999_999).toString(36).toUpperCase()}`;
    case 'multi_line':
      return Array.from({ length: random.int(1, 3) }, () => random.pick(SENTENCES)).join('\n');
    case 'pick_list':
      return random.pick(field.options ?? []);
    case 'multi_select':
      return (field.options ?? []).filter(() => random.chance(0.3));
    case 'user_pick_list':
      return user();
    case 'multi_user':
      return Array.from({ length: random.int(1, 3) }, user);
    case 'date':
      return new Date(created + random.int(-200, 400) * DAY_MS).toISOString().slice(0, 10);
    case 'time':
      return `${String(random.int(7, 19)).padStart(2, '0')}:${random.pick(['00', '15', '30', '45'])}`;
    case 'timestamp':
      return new Date(created + random.int(0, 120) * DAY_MS).toISOString();
    case 'check_box':
      return random.chance(0.5);
    case 'currency': {
      const amount = random.int(2_000, 5_000_000) / 100;
      const code = random.pick(CURRENCIES);
      return { currency_code: code, formatted_amount: `${code} ${amount.toFixed(2)}`, amount };
    }
    case 'percentage':
      return random.int(0, 100);
    case 'number':
      return random.int(1, 500);
    case 'decimal':
      return random.int(10, 50_000) / 100;
    case 'email':
      return `${random.pick(['sales', 'support', 'billing'])}@${random.pick(['bluefin', 'redwood'])}.example`;
    case 'phone':
      return `+1 555 ${random.int(100, 999)} ${random.int(1000, 9999)}`;
    case 'url':
      return `https://docs.example.com/${field.apiName.replace('cf_', '')}/${random.int(100, 999)}`;
  }
}

function record(ordinal: number): MirrorRecord {
  const random = generator(ordinal);
  const created = ANCHOR - random.int(0, 730 * DAY_MS);
  const status = random.int(0, STATUS_IDS.length - 1);
  const custom: Record<string, unknown> = {};
  for (const field of ASSETS.fields) {
    custom[field.apiName] =
      !field.mandatory && random.chance(0.15) ? null : value(random, field, created);
  }
  return {
    portalId: PORTAL,
    moduleId: MODULE,
    id: String(1_100_000_000_000 + ordinal),
    name: `${random.pick(ASSETS.adjectives)} ${random.pick(ASSETS.nouns)} #${ordinal}`,
    description: Array.from({ length: random.int(0, 3) }, () => random.pick(SENTENCES)).join(' '),
    statusId: STATUS_IDS[status]!,
    layoutId: LAYOUT,
    projectId: random.chance(0.8) ? '1000000000004' : null,
    projectName: 'Warehouse Automation',
    ownerZpuid: random.pick(ZPUIDS),
    isClosed: ASSETS.statuses[status]!.closed,
    isExternal: random.chance(0.05),
    createdTime: new Date(created).toISOString(),
    lastUpdatedTime: new Date(Math.min(ANCHOR, created + random.int(0, 90) * DAY_MS)).toISOString(),
    trashedTime: null,
    custom,
  };
}

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
  mirror.metadata.upsertPortals([
    {
      id: PORTAL,
      accountId: 'admin@portaldesk.demo',
      dc: 'us',
      name: 'northwind',
      orgName: 'Northwind Traders',
      timeZone: 'Asia/Kolkata',
      weekStartDay: 1,
      isDefault: true,
      details: {},
    },
  ]);
  mirror.metadata.upsertUsers(
    PORTAL,
    PEOPLE.map(([first, last], i) => ({
      zpuid: ZPUIDS[i]!,
      name: `${first} ${last}`,
      email: `${first.toLowerCase()}@portaldesk.demo`,
    })),
  );
  const moduleOf = (id: string, seed: (typeof MODULES)[number]) => ({
    id,
    apiName: seed.apiName,
    singularName: seed.singular,
    pluralName: seed.plural,
    iconClass: seed.icon,
    isActive: true,
    isDefault: false,
    createdTime: null,
    details: {},
  });
  mirror.metadata.replaceModules(PORTAL, [
    moduleOf(MODULE, ASSETS),
    moduleOf(SMALL_MODULE, VENDORS),
  ]);
  const system = [
    systemField('1000000000090', 'name', 'Asset name', 'single_line'),
    systemField('1000000000091', 'description', 'Description', 'multi_line'),
    systemField('1000000000092', 'status', 'Status', 'status'),
    systemField('1000000000093', 'owner', 'Owner', 'user_pick_list'),
    systemField('1000000000094', 'project', 'Project', 'project'),
  ];
  const custom = ASSETS.fields.map((field, i) => ({
    id: String(1_000_000_100 + i),
    apiName: field.apiName,
    displayName: field.label,
    fieldType: field.type,
    dataType: field.type,
    isDefault: false,
    isMandatory: field.mandatory === true,
    fieldProperty: {},
    createdTime: null,
  }));
  mirror.metadata.replaceFields(PORTAL, MODULE, [...system, ...custom]);
  mirror.metadata.replaceStatuses(
    PORTAL,
    MODULE,
    ASSETS.statuses.map((status, i) => ({
      id: STATUS_IDS[i]!,
      name: status.name,
      color: status.color,
      isClosedType: status.closed,
      isDefault: i === 0,
      position: i + 1,
      transitions: STATUS_IDS.filter((_, j) => j !== i),
    })),
  );
  ASSETS.fields.forEach((field, i) => {
    if (!field.options) return;
    mirror.metadata.replaceFieldOptions(
      PORTAL,
      String(1_000_000_100 + i),
      field.options.map((option, j) => ({
        kind: 'custom_option' as const,
        valueId: String(1_000_001_000 + i * 100 + j),
        value: option,
        layoutId: null,
        position: j + 1,
      })),
    );
  });
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
      .map((field, i) => ({ field, id: String(1_000_000_100 + i) }))
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
      for (let i = first; i < Math.min(RECORDS + 1, first + BATCH); i++) batch.push(record(i));
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
      const id = String(1_100_000_000_000 + i);
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
      portal: PORTAL,
      module: MODULE,
      ms: Math.round(performance.now() - started),
    }),
  );
});
