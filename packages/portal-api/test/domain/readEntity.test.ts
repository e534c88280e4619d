/**
 * The fast record reader against the Entity schema: whatever it accepts it must return exactly as
 * the schema does (values and key order: the order decides the stored `custom` text), and the
 * records the service really sends must take the fast path.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENTITY_FIXED_FIELDS, Entity } from '@portaldesk/portal-api/domain/entity';
import { parseEach } from '@portaldesk/portal-api/domain/parseEach';
import { READ_ENTITY_FIXED_FIELDS, readEntity } from '@portaldesk/portal-api/domain/readEntity';

/** A record as the emulator lists it. */
const sent = () => ({
  id: '1000000000386',
  name: 'Ubiquiti router #1',
  description: 'Rollback tested in staging without issues.',
  status: { id: '1000000000317', name: 'In Stock', color: '#2a64d6', is_closed_type: false },
  layout: { id: '1000000000309', name: 'Standard' },
  project: null,
  owner: { zpuid: '1000000000019', name: 'Priya Nair', email: 'priya.nair@portaldesk.demo' },
  is_closed: false,
  is_external: false,
  created_time: '2025-07-22T02:14:48.371Z',
  last_updated_time: '2025-08-16T02:14:48.371Z',
  trashed_time: null,
  cf_serial_number: 'SN-1ELEBE',
  cf_tags: ['Encrypted', 'Remote'],
  cf_cost: { currency_code: 'JPY', formatted_amount: 'JPY 15861.59', amount: 15861.59 },
  cf_custodian: { zpuid: '1000000000009', name: 'Lucas Moreau' },
  cf_quantity: null,
});

/** The schema's answer, with key order made visible. */
function viaSchema(item: unknown): string | undefined {
  const parsed = Entity.safeParse(item);
  return parsed.success ? JSON.stringify(parsed.data) : undefined;
}

describe('readEntity', () => {
  it('knows the same fixed members as the schema', () => {
    expect([...READ_ENTITY_FIXED_FIELDS].sort()).toEqual([...ENTITY_FIXED_FIELDS].sort());
  });

  it('reads what the service sends as the schema does, custom fields in the order sent', () => {
    const item = sent();
    const fast = readEntity(item);
    expect(fast).toBeDefined();
    expect(JSON.stringify(fast)).toBe(viaSchema(item));
    expect(Object.keys(fast!.custom)).toEqual([
      'cf_serial_number',
      'cf_tags',
      'cf_cost',
      'cf_custodian',
      'cf_quantity',
    ]);
  });

  it('fills absent optional members as the schema does', () => {
    const item: Record<string, unknown> = sent();
    for (const key of ['description', 'project', 'owner', 'is_closed', 'created_time']) {
      delete item[key];
    }
    (item.status as Record<string, unknown>).extra = 1;
    const fast = readEntity(item);
    expect(fast).toMatchObject({ description: '', project: null, owner: null, is_closed: false });
    expect(JSON.stringify(fast)).toBe(viaSchema(item));
  });

  it('leaves anything unusual to the schema, so a bad record is still skipped with its reason', () => {
    const bad = { ...sent(), last_updated_time: '2025-02-30T00:00:00Z' };
    expect(readEntity(bad)).toBeUndefined();
    expect(readEntity({ ...sent(), id: 386 })).toBeUndefined();
    const page = parseEach(Entity, [sent(), bad, { ...sent(), id: 386 }]);
    expect(page.items.map((e) => e.id)).toEqual(['1000000000386', '386']);
    expect(page.skipped).toEqual([
      { index: 1, id: '1000000000386', problems: [expect.stringContaining('last_updated_time')] },
    ]);
  });

  it('never disagrees with the schema on varied records', () => {
    // Mostly valid values, so a good share of records takes the fast path; the rest probe it.
    const mostly = <T>(valid: fc.Arbitrary<T>, ...others: fc.Arbitrary<unknown>[]) =>
      fc.oneof(
        { arbitrary: valid, weight: 30 },
        ...others.map((arbitrary) => ({ arbitrary, weight: 1 })),
      );
    const text = mostly(fc.string(), fc.constant(null), fc.constant(undefined), fc.integer());
    const flagValue = mostly(fc.boolean(), fc.constant(null), fc.constant(undefined), fc.string());
    const idValue = mostly(
      fc.stringMatching(/^\d{1,20}$/),
      fc.stringMatching(/^\d{21,22}$/),
      fc.string(),
      fc.integer({ min: -5, max: 1e15 }),
      fc.constant(undefined),
    );
    const timeValue = mostly(
      fc
        .date({ min: new Date('1990-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString()),
      fc.constantFrom(
        '2024-02-29T10:00:00+05:30',
        '2023-02-29T10:00:00Z',
        '2025-08-16T24:00:00Z',
        '2025-08-16',
        '2025-08-16T02:14:48.371',
      ),
      fc.constant(null),
      fc.constant(undefined),
      fc.integer(),
    );
    const ref = mostly(
      fc.record(
        { id: idValue, name: text, color: text, is_closed_type: flagValue, zz: fc.jsonValue() },
        { requiredKeys: ['id'] },
      ),
      fc.constant(null),
      fc.constant(undefined),
      fc.string(),
    );
    const userRef = mostly(
      fc.record(
        { zpuid: mostly(fc.string(), fc.integer()), name: text, email: text },
        { requiredKeys: ['zpuid'] },
      ),
      fc.constant(null),
      fc.constant(undefined),
    );
    const record = fc.record(
      {
        cf_first: fc.jsonValue(),
        id: idValue,
        name: text,
        description: text,
        status: ref,
        layout: ref,
        project: ref,
        owner: userRef,
        is_closed: flagValue,
        is_external: flagValue,
        created_time: timeValue,
        last_updated_time: timeValue,
        trashed_time: timeValue,
        cf_last: fc.jsonValue(),
      },
      { requiredKeys: ['id', 'name', 'status', 'layout', 'last_updated_time'] },
    );
    let fastReads = 0;
    fc.assert(
      fc.property(record, (generated) => {
        // Through JSON, as a reply is: no undefined members.
        const item = JSON.parse(JSON.stringify(generated)) as unknown;
        const fast = readEntity(item);
        if (fast === undefined) return;
        fastReads++;
        expect(JSON.stringify(fast)).toBe(viaSchema(item));
      }),
      { numRuns: 3000 },
    );
    // Many of the varied records must have taken the fast path, or the property says little.
    expect(fastReads).toBeGreaterThan(100);
  });
});
