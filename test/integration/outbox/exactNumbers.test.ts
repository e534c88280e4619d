/**
 * A number the service holds beyond what a double holds (spec: Number "whole number, max 19
 * digits", Decimal "max 17 digits") arrives, is mirrored, listed and shown with the service's
 * exact digits, and an edit of another field of the record never sends it back. The emulator
 * stores numbers as doubles, so the service's digits are put on the wire: each record's value is
 * a marker on the emulator that every reply carries as the generated literal instead.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecordsReader } from '../../../src/main/records/recordsReader';
import { describeValue } from '../../../src/shared/recordValues/describeValue';
import { outboxSession } from './outboxSession';

/** A decimal literal's value as a fraction n / 10^k, to compare values, not texts. */
function rational(text: string): { n: bigint; k: bigint } {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) throw new Error(`not a number: ${text}`);
  const fraction = m[3] ?? '';
  return {
    n: BigInt(`${m[1]}${m[2]}${fraction}`),
    k: BigInt(fraction.length) - BigInt(m[4] ?? '0'),
  };
}

function sameValue(a: string, b: string): boolean {
  const [x, y] = [rational(a), rational(b)];
  const k = x.k > y.k ? x.k : y.k;
  return x.n * 10n ** (k - x.k) === y.n * 10n ** (k - y.k);
}

/** A mirrored value written back as text: a string as it is, a number as JS writes it. */
const written = (value: unknown) => String(value);

const digits = (min: number, max: number) =>
  fc
    .array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max })
    .map((d) => d.join(''));
/** Whole numbers of 16 to 19 digits, as the Number field may hold. */
const wholeNumber = fc
  .tuple(fc.boolean(), fc.integer({ min: 1, max: 9 }), digits(15, 18))
  .map(([negative, first, rest]) => `${negative ? '-' : ''}${first}${rest}`);
/** Decimals of 16 or 17 digits, as the Decimal field may hold. */
const decimal = fc
  .tuple(fc.integer({ min: 1, max: 9 }), digits(2, 5), digits(11, 11))
  .map(([first, whole, fraction]) => `${first}${whole}.${fraction}`);

describe('numbers beyond a double, service to table and back', () => {
  it('are mirrored, listed and shown exactly, and an edit of the name sends only the name', async () => {
    const quantities = fc.sample(wholeNumber, { numRuns: 8, seed: 14 });
    const weights = fc.sample(decimal, { numRuns: 8, seed: 15 });
    /** Marker on the emulator (a small number it holds exactly) → the service's literal. */
    const onWire = new Map<string, string>();
    const s = await (async () => {
      const markers = (text: string) =>
        text.replace(/"(cf_quantity|cf_weight_kg)":(\d+(?:\.\d+)?)(?=[,}])/g, (all, field, n) => {
          const literal = onWire.get(`${field}=${n}`);
          return literal === undefined ? all : `"${field}":${literal}`;
        });
      return outboxSession({ records: 40, rewriteReply: markers });
    })();
    const quantityIds = s.recordsWithField('cf_quantity');
    const weightIds = new Set(s.recordsWithField('cf_weight_kg'));
    const cases = quantityIds
      .filter((id) => weightIds.has(id))
      .slice(0, quantities.length)
      .map((id, i) => ({ id, quantity: quantities[i]!, weight: weights[i]! }));
    expect(cases.length).toBeGreaterThan(3);
    for (const [i, c] of cases.entries()) {
      const [q, w] = [String(7_000_001 + i), `${7_000_001 + i}.5`];
      onWire.set(`cf_quantity=${q}`, c.quantity);
      onWire.set(`cf_weight_kg=${w}`, c.weight);
      await s.serverPatch(c.id, { cf_quantity: Number(q), cf_weight_kg: Number(w) });
    }
    const synced = await s.engine.syncAccount(s.account).done;
    expect(synced.state).toBe('done');

    const reader = new RecordsReader(s.store.db, s.mirror);
    const columns = reader.columns(s.portalId, s.module.id);
    const context = { timeZone: columns.timeZone, locale: 'en-US' };
    const rows = s.mirror.query.rowsOfIds(
      { portalId: s.portalId, moduleId: s.module.id },
      cases.map((c) => c.id),
    );
    for (const c of cases) {
      const stored = JSON.parse(
        s.store.db
          .prepare('SELECT custom FROM records WHERE portal_id = ? AND id = ?')
          .pluck()
          .get(s.portalId, c.id) as string,
      ) as Record<string, unknown>;
      // The mirror holds the service's value...
      expect(sameValue(written(stored.cf_quantity), c.quantity), `mirror ${c.quantity}`).toBe(true);
      expect(sameValue(written(stored.cf_weight_kg), c.weight), `mirror ${c.weight}`).toBe(true);
      // ...the table's row and the record panel show it, digit for digit.
      const row = rows.find((r) => r.id === c.id)!;
      const panel = reader.detail(s.portalId, c.id).record;
      for (const [field, type, literal] of [
        ['cf_quantity', 'number', c.quantity],
        ['cf_weight_kg', 'decimal', c.weight],
      ] as const) {
        for (const value of [row.custom[field], panel.custom[field]]) {
          const view = describeValue(type, value, context);
          expect(view.kind).toBe('text');
          const shown = (view as { text: string }).text.replace(/,/g, '');
          expect(sameValue(shown, literal), `${field} shown ${shown} for ${literal}`).toBe(true);
        }
      }
    }

    // Offline, only the name changes; the replay sends only the name, and nothing conflicts.
    s.outbox.setWorkOffline(true);
    for (const c of cases) s.outbox.edit(s.portalId, c.id, { name: `Renamed ${c.id}` });
    const before = s.writes().length;
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    const patches = s.writes().slice(before);
    expect(patches).toHaveLength(cases.length);
    for (const patch of patches) {
      expect(patch.method).toBe('PATCH');
      expect(Object.keys(JSON.parse(patch.body ?? '{}') as object)).toEqual(['name']);
    }
    // The service still holds its values (the markers), and the mirror its exact digits.
    for (const [i, c] of cases.entries()) {
      const server = (await s.serverRecord(c.id)) as Record<string, unknown>;
      expect(server.name).toBe(`Renamed ${c.id}`);
      const markerOnEmulator = s.emulator.state.db
        .prepare("SELECT json_extract(custom, '$.cf_quantity') FROM entities WHERE id = ?")
        .pluck()
        .get(Number(c.id));
      expect(markerOnEmulator).toBe(7_000_001 + i);
      // The PATCH's answer, written to the mirror, carried the exact digits too.
      const mirrored = JSON.parse(
        s.store.db
          .prepare('SELECT custom FROM records WHERE portal_id = ? AND id = ?')
          .pluck()
          .get(s.portalId, c.id) as string,
      ) as Record<string, unknown>;
      expect(sameValue(written(mirrored.cf_quantity), c.quantity)).toBe(true);
    }
  }, 60_000);
});
