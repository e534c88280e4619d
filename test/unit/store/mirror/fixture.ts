/**
 * A mirrored portal for the mirror's tests: the app's Store (every migration) on a fresh data
 * directory, one module with a field of each filterable kind, statuses, options and people, and
 * records in the shapes the API shows them.
 */
import { Store } from '../../../../src/main/store/store';
import { Mirror } from '../../../../src/main/store/mirror/mirror';
import type {
  MirrorField,
  MirrorRecord,
  MirrorStatus,
  MirrorUser,
} from '../../../../src/main/store/mirror/mirrorTypes';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { tempDir } from '../../../support/tempDir';

export const PORTAL = 'p100';
export const MODULE = 'm200';
export const NOW = Date.parse('2026-03-05T10:00:00Z');

export const USERS: MirrorUser[] = [
  { zpuid: '5001', name: 'Maya Raman', email: 'maya@example.test' },
  { zpuid: '5002', name: 'Jonas Weber', email: 'jonas@example.test' },
  { zpuid: '5003', name: 'Ärger Ölmann', email: 'aerger@example.test' },
  { zpuid: '5004', name: 'Zoe Fischer', email: 'zoe@example.test' },
];

export const STATUSES: MirrorStatus[] = [
  {
    id: '2001',
    name: 'Open',
    color: '#2a64d6',
    isClosedType: false,
    isDefault: true,
    position: 1,
    transitions: ['2002', '2003'],
  },
  {
    id: '2002',
    name: 'In Review',
    color: '#b7791f',
    isClosedType: false,
    isDefault: false,
    position: 2,
    transitions: ['2003', '2004'],
  },
  {
    id: '2003',
    name: 'Approved',
    color: '#1f8a4c',
    isClosedType: true,
    isDefault: false,
    position: 3,
    transitions: ['2001'],
  },
  {
    id: '2004',
    name: 'Rejected',
    color: '#c53030',
    isClosedType: true,
    isDefault: false,
    position: 4,
    transitions: ['2001'],
  },
];

/** A field as the mirror stores it: the display name is the api name. */
export const mirrorField = (
  id: string,
  apiName: string,
  fieldType: string,
  isDefault = false,
): MirrorField => ({
  id,
  apiName,
  displayName: apiName,
  fieldType,
  dataType: fieldType,
  isDefault,
  isMandatory: false,
  fieldProperty: {},
  createdTime: '2025-01-01T00:00:00.000Z',
});

export const FIELDS: MirrorField[] = [
  mirrorField('f1', 'name', 'single_line', true),
  mirrorField('f2', 'status', 'status', true),
  mirrorField('f3', 'cf_serial', 'single_line'),
  mirrorField('f4', 'cf_category', 'pick_list'),
  mirrorField('f5', 'cf_tags', 'multi_select'),
  mirrorField('f6', 'cf_custodian', 'user_pick_list'),
  mirrorField('f7', 'cf_watchers', 'multi_user'),
  mirrorField('f8', 'cf_purchase', 'date'),
  mirrorField('f9', 'cf_audit', 'timestamp'),
  mirrorField('f10', 'cf_insured', 'check_box'),
  mirrorField('f11', 'cf_cost', 'currency'),
  mirrorField('f12', 'cf_quantity', 'number'),
];

export const CATEGORIES = ['Hardware', 'Peripheral', 'Network'];
/** Currency codes of cf_cost. */
export const CURRENCIES = ['USD', 'EUR', 'INR'];
/** Multi-select options: id -> name. */
export const TAGS: Record<string, string> = {
  '3001': 'Critical',
  '3002': 'Leased',
  '3003': 'Warranty',
};

const NAMES = ['Dell laptop', 'Lenovo ThinkPad', 'Straße router', 'ÄRGER monitor', 'cisco switch'];
const SENTENCES = [
  'Checked against the latest inventory export.',
  'Waiting for the vendor to confirm the delivery date.',
  'Über-urgent für das Team in München.',
  '',
];

/** A small deterministic generator (mulberry32). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Record `i` of a module, in the API's shapes; about one value in five is left empty. */
export function makeRecord(i: number, seed = 1): MirrorRecord {
  const rnd = random(seed * 1_000_003 + i);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)] as T;
  const maybe = <T>(value: () => T): T | undefined => (rnd() < 0.2 ? undefined : value());
  const status = pick(STATUSES);
  const user = () => {
    const u = pick(USERS);
    return { zpuid: u.zpuid, name: u.name ?? null };
  };
  const custom: Record<string, unknown> = {};
  const set = (key: string, value: unknown) => {
    if (value !== undefined) custom[key] = value;
  };
  set(
    'cf_serial',
    maybe(() => `SN-${Math.floor(rnd() * 1000)}`),
  );
  set(
    'cf_category',
    maybe(() => pick(CATEGORIES)),
  );
  set(
    'cf_tags',
    maybe(() => Object.values(TAGS).filter(() => rnd() < 0.5)),
  );
  set('cf_custodian', maybe(user));
  set(
    'cf_watchers',
    maybe(() => [user(), user()]),
  );
  set(
    'cf_purchase',
    maybe(() => `2026-0${1 + Math.floor(rnd() * 5)}-1${Math.floor(rnd() * 9)}`),
  );
  set(
    'cf_audit',
    maybe(() => new Date(NOW - Math.floor(rnd() * 20) * 86_400_000).toISOString()),
  );
  set(
    'cf_insured',
    maybe(() => rnd() < 0.5),
  );
  set(
    'cf_cost',
    maybe(() => {
      const amount = Math.floor(rnd() * 5000);
      // Several currencies, amounts overlapping: a sort by amount alone would mix them (issue 19).
      const code = CURRENCIES[amount % CURRENCIES.length] as string;
      return { currency_code: code, formatted_amount: `${code} ${amount}`, amount };
    }),
  );
  set(
    'cf_quantity',
    maybe(() => Math.floor(rnd() * 10)),
  );
  const created = NOW - Math.floor(rnd() * 400) * 86_400_000;
  return {
    portalId: PORTAL,
    moduleId: MODULE,
    id: String(1_000_000_000_000 + i),
    name: `${pick(NAMES)} #${i}`,
    description: pick(SENTENCES),
    statusId: status.id,
    layoutId: 'l1',
    projectId: rnd() < 0.8 ? 'pr1' : null,
    projectName: 'Warehouse Automation',
    ownerZpuid: pick(USERS).zpuid,
    isClosed: status.isClosedType,
    isExternal: rnd() < 0.1,
    createdTime: new Date(created).toISOString(),
    lastUpdatedTime: new Date(created + Math.floor(rnd() * 30) * 86_400_000).toISOString(),
    trashedTime: null,
    custom,
  };
}

const openForTest: Store[] = [];
const openForFile: { store: Store; dir: string }[] = [];

afterEach(() => {
  for (const store of openForTest.splice(0)) store.close();
});

afterAll(() => {
  for (const { store, dir } of openForFile.splice(0)) {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * A Store on a fresh data directory with the portal, its module and metadata mirrored; closed
 * after the current test, or with `forFile` after the test file (for a beforeAll).
 */
export function mirroredPortal(options: { now?: () => number; forFile?: boolean } = {}): {
  store: Store;
  mirror: Mirror;
} {
  let store: Store;
  if (options.forFile) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'portaldesk-mirror-'));
    store = Store.open({ dataDir: dir, mode: 'test' });
    openForFile.push({ store, dir });
  } else {
    store = Store.open({ dataDir: tempDir('portaldesk-mirror-'), mode: 'test' });
    openForTest.push(store);
  }
  const mirror = new Mirror(store.db, { now: options.now ?? (() => NOW) });
  mirror.metadata.upsertPortals([
    {
      id: PORTAL,
      accountId: 'acc1',
      dc: 'us',
      name: 'northwind',
      orgName: 'Northwind Traders',
      timeZone: 'Asia/Kolkata',
      weekStartDay: 1,
      isDefault: true,
      details: {},
    },
  ]);
  mirror.metadata.upsertUsers(PORTAL, USERS);
  mirror.metadata.replaceModules(PORTAL, [
    {
      id: MODULE,
      apiName: 'assets',
      singularName: 'Asset',
      pluralName: 'Assets',
      iconClass: null,
      isActive: true,
      isDefault: false,
      createdTime: null,
      details: {},
    },
  ]);
  mirror.metadata.replaceFields(PORTAL, MODULE, FIELDS);
  mirror.metadata.replaceStatuses(PORTAL, MODULE, STATUSES);
  mirror.metadata.replaceFieldOptions(
    PORTAL,
    'f5',
    Object.entries(TAGS).map(([valueId, value], position) => ({
      kind: 'custom_option' as const,
      valueId,
      value,
      layoutId: null,
      position,
    })),
  );
  return { store, mirror };
}
