/**
 * Which columns the table shows and how wide, per module: a default from the module's fields,
 * then whatever the person chose (kept in this browser profile's localStorage by the store; it is
 * a view preference, not data). Pure.
 */
import type { RecordRow, RecordsField } from '../../../../shared/ipc/areas/records';

export interface ColumnLayout {
  /** Column keys in display order. */
  visible: string[];
  widths: Record<string, number>;
}

/** Columns shown before the person chooses: the fixed ones people scan first, then custom ones. */
const DEFAULT_SYSTEM = ['name', 'status', 'owner', 'last_updated_time'];
const DEFAULT_COLUMNS_MAX = 10;
export const MIN_COLUMN_WIDTH = 60;
export const MAX_COLUMN_WIDTH = 800;

const WIDTH_BY_TYPE: Record<string, number> = {
  name: 280,
  status: 140,
  owner: 160,
  user_pick_list: 160,
  multi_user: 220,
  multi_select: 220,
  multi_line: 260,
  timestamp: 190,
  date: 120,
  time: 90,
  check_box: 90,
  currency: 150,
  number: 110,
  decimal: 110,
  percentage: 110,
  url: 220,
  email: 200,
  id: 150,
};

export function defaultWidth(field: RecordsField): number {
  return WIDTH_BY_TYPE[field.type] ?? 160;
}

export function defaultLayout(fields: readonly RecordsField[]): ColumnLayout {
  const keys = new Set(fields.map((f) => f.key));
  const visible = DEFAULT_SYSTEM.filter((key) => keys.has(key));
  for (const field of fields) {
    if (visible.length >= DEFAULT_COLUMNS_MAX) break;
    // A field listed both as a fixed one and among the module's own (the service's layouts name
    // `owner` as a field too) is shown once.
    if (!field.system && !visible.includes(field.key)) visible.push(field.key);
  }
  return { visible, widths: Object.fromEntries(fields.map((f) => [f.key, defaultWidth(f)])) };
}

export function clampWidth(width: number): number {
  return Math.round(Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, width)));
}

/** A stored layout made to fit the module as it is now: fields gone are dropped, new ones sized. */
export function reconcileLayout(stored: unknown, fields: readonly RecordsField[]): ColumnLayout {
  const fallback = defaultLayout(fields);
  if (typeof stored !== 'object' || stored === null) return fallback;
  const { visible, widths } = stored as Partial<ColumnLayout>;
  const keys = new Set(fields.map((f) => f.key));
  const kept = Array.isArray(visible)
    ? visible.filter((key): key is string => typeof key === 'string' && keys.has(key))
    : [];
  if (kept.length === 0) return fallback;
  const merged: Record<string, number> = { ...fallback.widths };
  if (widths && typeof widths === 'object') {
    for (const [key, width] of Object.entries(widths)) {
      if (keys.has(key) && typeof width === 'number' && Number.isFinite(width)) {
        merged[key] = clampWidth(width);
      }
    }
  }
  return { visible: [...new Set(kept)], widths: merged };
}

/** Shows or hides a column; the name column always stays, so a row can be told apart. */
export function toggleColumn(layout: ColumnLayout, key: string): ColumnLayout {
  if (key === 'name') return layout;
  if (layout.visible.includes(key)) {
    return { ...layout, visible: layout.visible.filter((k) => k !== key) };
  }
  // A column shown again goes last, where the person will look for it.
  const visible = [...layout.visible, key];
  return { ...layout, visible };
}

/**
 * The currency codes of a currency column among `rows` (those on screen), each once, in the order
 * they first appear: for a list sorted by that column, its own order.
 */
export function currenciesShown(rows: readonly (RecordRow | undefined)[], key: string): string[] {
  const codes = new Set<string>();
  for (const row of rows) {
    const value = row?.custom[key];
    if (typeof value !== 'object' || value === null) continue;
    const code = (value as { currency_code?: unknown }).currency_code;
    if (typeof code === 'string' && code !== '') codes.add(code);
  }
  return [...codes];
}

/**
 * A column header's tooltip: what clicking does, and how the column sorts where that is not
 * plain (a currency sorts by its code, then its amount, so it also names the currencies shown).
 */
export function headerTitle(
  column: RecordsField,
  sortedByIt: boolean,
  currencies: readonly string[],
): string {
  if (!column.sortable) return `${column.label} holds several values and cannot be sorted`;
  if (column.type !== 'currency') return `Sort by ${column.label}`;
  if (!sortedByIt) return `Sort by ${column.label}: by currency, then amount`;
  const shown =
    currencies.length === 0
      ? ''
      : ` ${currencies.length === 1 ? 'Currency' : 'Currencies'} shown: ${currencies.join(', ')}.`;
  return `Sorted by currency, then amount.${shown}`;
}
