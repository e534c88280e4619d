/**
 * Deterministic synthetic records for the store benchmark and the records workspace's mirror
 * (bench/store.bench.ts, bench/uiMirror.bench.ts): one portal of the demo account, the seed
 * catalog's `assets` module (every custom field type) and its records in the API's shapes. Every
 * call with the same ordinal gives the same record, so every run measures the same data.
 */
import type { CustomFieldType } from '@portaldesk/portal-api/domain/customFieldTypes';
import {
  CURRENCIES,
  MODULES,
  PEOPLE,
  SENTENCES,
  type SeedField,
  type SeedModule,
} from '@portaldesk/emulator/model/seedCatalog';
import type { Mirror } from '../src/main/store/mirror/mirror';
import type { MirrorField, MirrorRecord } from '../src/main/store/mirror/mirrorTypes';

export const PORTAL = '1000000000001';
export const MODULE = '1000000000002';
export const LAYOUT = '1000000000003';
export const DAY_MS = 86_400_000;
export const ANCHOR = Date.parse('2026-03-05T00:00:00.000Z');

export const ASSETS = MODULES[0]!;
export const ZPUIDS = PEOPLE.map((_, i) => String(4_000_000_000 + i));
export const STATUS_IDS = ASSETS.statuses.map((_, i) => String(2_000_000_000 + i));

/** The id of the assets module's custom field `index` (its place in the seed catalog). */
export const customFieldId = (index: number): string => String(1_000_000_100 + index);

/** Deterministic numbers (mulberry32), so every run measures the same data. */
export function generator(seed: number) {
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

export type Random = ReturnType<typeof generator>;

/** A value in the shape the API shows (as the emulator's seed makes them, then shows them). */
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

/** Where the records live: the portal, the assets module's id and its layout's. */
export interface RecordPlace {
  portalId: string;
  moduleId: string;
  layoutId: string;
}

const DEFAULT_PLACE: RecordPlace = { portalId: PORTAL, moduleId: MODULE, layoutId: LAYOUT };

/** The id of record `ordinal`. */
export const recordId = (ordinal: number): string => String(1_100_000_000_000 + ordinal);

/** Record `ordinal`, the same on every call (a repeated pull sees the same data). */
export function record(ordinal: number, place: RecordPlace = DEFAULT_PLACE): MirrorRecord {
  const random = generator(ordinal);
  const created = ANCHOR - random.int(0, 730 * DAY_MS);
  const status = random.int(0, STATUS_IDS.length - 1);
  const custom: Record<string, unknown> = {};
  for (const field of ASSETS.fields) {
    custom[field.apiName] =
      !field.mandatory && random.chance(0.15) ? null : value(random, field, created);
  }
  return {
    portalId: place.portalId,
    moduleId: place.moduleId,
    id: recordId(ordinal),
    name: `${random.pick(ASSETS.adjectives)} ${random.pick(ASSETS.nouns)} #${ordinal}`,
    description: Array.from({ length: random.int(0, 3) }, () => random.pick(SENTENCES)).join(' '),
    statusId: STATUS_IDS[status]!,
    layoutId: place.layoutId,
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

export interface MetadataOptions {
  /** The portal's account. */
  accountId: string;
  portalId?: string;
  /** The assets module's id. */
  moduleId?: string;
  /** Further modules (without fields) listed after the assets module. */
  otherModules?: readonly { id: string; seed: SeedModule }[];
  /** Fields of the assets module listed before its custom fields (the system fields). */
  systemFields?: readonly MirrorField[];
}

/**
 * The portal, its users, the modules, and the assets module's fields, statuses and field options,
 * as a metadata sync writes them.
 */
export function writeMetadata(mirror: Mirror, options: MetadataOptions): void {
  const portalId = options.portalId ?? PORTAL;
  const moduleId = options.moduleId ?? MODULE;
  mirror.metadata.upsertPortals([
    {
      id: portalId,
      accountId: options.accountId,
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
    portalId,
    PEOPLE.map(([first, last], i) => ({
      zpuid: ZPUIDS[i]!,
      name: `${first} ${last}`,
      email: `${first.toLowerCase()}@portaldesk.demo`,
    })),
  );
  const moduleOf = (id: string, seed: SeedModule) => ({
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
  mirror.metadata.replaceModules(portalId, [
    moduleOf(moduleId, ASSETS),
    ...(options.otherModules ?? []).map(({ id, seed }) => moduleOf(id, seed)),
  ]);
  const custom = ASSETS.fields.map((field, i) => ({
    id: customFieldId(i),
    apiName: field.apiName,
    displayName: field.label,
    fieldType: field.type,
    dataType: field.type,
    isDefault: false,
    isMandatory: field.mandatory === true,
    fieldProperty: {},
    createdTime: null,
  }));
  mirror.metadata.replaceFields(portalId, moduleId, [...(options.systemFields ?? []), ...custom]);
  mirror.metadata.replaceStatuses(
    portalId,
    moduleId,
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
      portalId,
      customFieldId(i),
      field.options.map((option, j) => ({
        kind: 'custom_option' as const,
        valueId: String(1_000_001_000 + i * 100 + j),
        value: option,
        layoutId: null,
        position: j + 1,
      })),
    );
  });
}
