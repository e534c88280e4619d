import { describe, expect, it } from 'vitest';
import { api, grantToken, testEmulator } from '../../support/emulator';

type Emulator = Awaited<ReturnType<typeof testEmulator>>;

const NEW_ASSET = { name: 'Value test', cf_serial_number: 'SN-VALUES' };

async function setup() {
  const emulator = await testEmulator({ records: 40 });
  const base = emulator.dcs.us!.api;
  const token = grantToken(emulator);
  const portalId = emulator.portals[0]!;
  const { db } = emulator.state;
  const call = (method: string, suffix: string, body?: unknown) =>
    api(base, token, method, `/api/v3/portal/${portalId}/projects/assets${suffix}`, body);
  const users = (
    db
      .prepare(
        `SELECT u.zpuid, u.first_name || ' ' || u.last_name AS name FROM users u
         JOIN portal_users pu ON pu.zpuid = u.zpuid
         WHERE pu.portal_id = ? AND u.status = 'active' ORDER BY u.id`,
      )
      .all(Number(portalId)) as { zpuid: string; name: string }[]
  ).slice(0, 3);
  const inactive = db
    .prepare(
      `SELECT u.zpuid, u.status FROM users u JOIN portal_users pu ON pu.zpuid = u.zpuid
       WHERE pu.portal_id = ? AND u.status <> 'active'`,
    )
    .get(Number(portalId)) as { zpuid: string; status: string };
  const fieldId = (apiName: string) =>
    (
      db
        .prepare(
          `SELECT f.id FROM fields f JOIN modules m ON m.id = f.module_id
           WHERE m.portal_id = ? AND m.api_name = 'assets' AND f.api_name = ?`,
        )
        .get(Number(portalId), apiName) as { id: number }
    ).id;
  return { emulator, call, db, users, inactive, portalId, fieldId };
}

function snapshot(emulator: Emulator) {
  return emulator.state.db.prepare('SELECT * FROM entities ORDER BY id').all();
}

describe('custom field values: every type, valid and invalid', () => {
  it('accepts each type in its spec shape and shows it back', async () => {
    const { call, users } = await setup();
    const [a, b] = users as [{ zpuid: string; name: string }, { zpuid: string; name: string }];
    const cases: [string, unknown, unknown][] = [
      ['cf_serial_number', 'SN-1', 'SN-1'],
      ['cf_notes', 'line 1\nline 2', 'line 1\nline 2'],
      ['cf_category', 'Network', 'Network'],
      ['cf_tags', ['Leased', 'Critical'], ['Leased', 'Critical']],
      ['cf_custodian', { zpuid: a.zpuid }, { zpuid: a.zpuid, name: a.name }],
      [
        'cf_watchers',
        [{ zpuid: a.zpuid }, { zpuid: b.zpuid }],
        [
          { zpuid: a.zpuid, name: a.name },
          { zpuid: b.zpuid, name: b.name },
        ],
      ],
      ['cf_purchase_date', '2024-02-29', '2024-02-29'],
      ['cf_pickup_time', '07:45', '07:45'],
      ['cf_last_audit', '2026-03-01T10:00:00+05:30', '2026-03-01T04:30:00.000Z'],
      ['cf_insured', false, false],
      [
        'cf_cost',
        { amount: 1250.5, currency_code: 'EUR' },
        { currency_code: 'EUR', formatted_amount: 'EUR 1250.50', amount: 1250.5 },
      ],
      ['cf_depreciation', 12.5, 12.5],
      ['cf_quantity', 42, 42],
      ['cf_weight_kg', 3.75, 3.75],
      ['cf_supplier_email', 'buyer@example.com', 'buyer@example.com'],
      ['cf_support_phone', '+1 (555) 010-99', '+1 (555) 010-99'],
      ['cf_manual_url', 'docs.example.com/manual', 'https://docs.example.com/manual'],
    ];
    for (const [field, input, shown] of cases) {
      const created = await call('POST', '/entities', { ...NEW_ASSET, [field]: input });
      expect(created.status, `${field}: ${JSON.stringify(created.body).slice(0, 200)}`).toBe(201);
      expect(created.body.entity[field], field).toEqual(shown);
      // What a GET shows can be sent back unchanged (user fields as {zpuid, name}).
      const resent = await call('PATCH', `/entities/${created.body.entity.id}`, {
        [field]: created.body.entity[field],
      });
      expect(
        resent.status,
        `${field} sent back: ${JSON.stringify(resent.body).slice(0, 200)}`,
      ).toBe(200);
      expect(resent.body.entity[field], field).toEqual(shown);
      // null empties it.
      if (field !== 'cf_serial_number') {
        const cleared = await call('PATCH', `/entities/${created.body.entity.id}`, {
          [field]: null,
        });
        expect(cleared.body.entity[field], field).toBeNull();
      }
    }
  });

  it('refuses a wrong value of each type, naming the field and the rule, and writes nothing', async () => {
    const { call, emulator, inactive } = await setup();
    const before = snapshot(emulator);
    const cases: [string, unknown, RegExp][] = [
      ['cf_serial_number', 12, /^cf_serial_number must be a string\.$/],
      ['cf_serial_number', 'two\nlines', /single-line field/],
      ['cf_notes', ['x'], /^cf_notes must be a string\.$/],
      [
        'cf_category',
        'Spaceship',
        /^cf_category: "Spaceship" is not an option of the field; options: "Hardware"/,
      ],
      ['cf_tags', 'Leased', /^cf_tags must be an array of option names\.$/],
      ['cf_tags', ['Leased', 'Nope'], /"Nope" is not an option/],
      [
        'cf_tags',
        [{ add: ['Leased'] }],
        /a new record takes an array of option names, not \{add, remove\}/,
      ],
      ['cf_custodian', 'someone', /must be an object \{"zpuid"/],
      ['cf_custodian', { zpuid: '42' }, /^cf_custodian: 42 is not a user of this portal\.$/],
      [
        'cf_custodian',
        { zpuid: inactive.zpuid },
        new RegExp(`user ${inactive.zpuid} is ${inactive.status}`),
      ],
      ['cf_watchers', [{ id: '1' }], /must hold objects like \{"zpuid"/],
      ['cf_purchase_date', '2023-02-29', /not a real calendar date/],
      ['cf_purchase_date', '29-02-2024', /must be a date written yyyy-MM-dd/],
      ['cf_pickup_time', '7:45', /must be a time written HH:MM/],
      ['cf_last_audit', '2026-03-01 10:00:00', /must be a time stamp/],
      ['cf_insured', 'yes', /^cf_insured must be true or false\.$/],
      ['cf_cost', 12, /must be an object \{currency_code, formatted_amount, amount\}/],
      ['cf_cost', { currency_code: 'EUR' }, /^cf_cost\.amount is required\.$/],
      ['cf_depreciation', '12%', /^cf_depreciation must be a number\.$/],
      ['cf_quantity', 2.5, /^cf_quantity must be a whole number\.$/],
      ['cf_weight_kg', 'heavy', /^cf_weight_kg must be a number\.$/],
      ['cf_supplier_email', 'nobody', /^cf_supplier_email is not a valid email address\.$/],
      ['cf_support_phone', 'call me', /may hold only digits/],
      ['cf_manual_url', 'https://', /^cf_manual_url is not a valid URL\.$/],
    ];
    for (const [field, input, message] of cases) {
      const reply = await call('POST', '/entities', { ...NEW_ASSET, [field]: input });
      expect(reply.status, `${field} ${JSON.stringify(input)}`).toBe(400);
      expect(reply.body.errorCode).toBe('INVALID_PARAMETER_VALUE');
      expect(reply.body.message, field).toMatch(message);
    }
    expect(snapshot(emulator)).toEqual(before);
  });

  it('updates multi-selects and multi-users with {add, remove} or a replacing array', async () => {
    const { call, users } = await setup();
    const [a, b, c] = users as { zpuid: string; name: string }[] as [
      { zpuid: string; name: string },
      { zpuid: string; name: string },
      { zpuid: string; name: string },
    ];
    const id = (
      await call('POST', '/entities', {
        ...NEW_ASSET,
        cf_tags: ['Leased', 'Remote'],
        cf_watchers: [{ zpuid: a.zpuid }, { zpuid: b.zpuid }],
      })
    ).body.entity.id;
    const changed = await call('PATCH', `/entities/${id}`, {
      cf_tags: [{ add: ['Shared'], remove: ['Leased'] }],
      cf_watchers: [{ add: [{ zpuid: c.zpuid }], remove: [{ zpuid: a.zpuid }] }],
    });
    expect(changed.status).toBe(200);
    expect(changed.body.entity.cf_tags).toEqual(['Remote', 'Shared']);
    expect(changed.body.entity.cf_watchers.map((u: { zpuid: string }) => u.zpuid)).toEqual([
      b.zpuid,
      c.zpuid,
    ]);
    const replaced = await call('PATCH', `/entities/${id}`, {
      cf_tags: ['Critical'],
      cf_watchers: [{ zpuid: a.zpuid }],
    });
    expect(replaced.body.entity.cf_tags).toEqual(['Critical']);
    expect(replaced.body.entity.cf_watchers).toEqual([{ zpuid: a.zpuid, name: a.name }]);
    const clash = await call('PATCH', `/entities/${id}`, {
      cf_tags: [{ add: ['Critical'], remove: ['Critical'] }],
    });
    expect(clash.status).toBe(400);
    expect(clash.body.message).toMatch(/both added and removed/);
  });
});

describe('custom field values: limits at the boundary and one past', () => {
  it('single-line, multi-line, email, phone, URL, currency, percentage, number, decimal', async () => {
    const { call, emulator } = await setup();
    const currency = (text: string) => ({
      currency_code: 'EUR',
      formatted_amount: text,
      amount: 1,
    });
    const currencyRoom = 100 - JSON.stringify(currency('')).length;
    const urlRoom = 200 - 'https://e.example/'.length;
    const cases: [string, unknown, unknown, RegExp][] = [
      [
        'cf_serial_number',
        's'.repeat(200),
        's'.repeat(201),
        /^cf_serial_number is longer than 200 characters\.$/,
      ],
      [
        'cf_notes',
        `${'n'.repeat(499)}\n${'n'.repeat(500)}`,
        'n'.repeat(1001),
        /^cf_notes is longer than 1000 characters\.$/,
      ],
      [
        'cf_supplier_email',
        `${'e'.repeat(188)}@example.com`,
        `${'e'.repeat(189)}@example.com`,
        /longer than 200 characters/,
      ],
      [
        'cf_support_phone',
        '+1 555 0100 999',
        '+1 555 0100 9999',
        /^cf_support_phone is longer than 15 characters\.$/,
      ],
      [
        'cf_manual_url',
        `e.example/${'u'.repeat(urlRoom)}`,
        `e.example/${'u'.repeat(urlRoom + 1)}`,
        /longer than 200 characters/,
      ],
      [
        'cf_cost',
        currency('c'.repeat(currencyRoom)),
        currency('c'.repeat(currencyRoom + 1)),
        /^cf_cost is longer than 100 characters/,
      ],
      [
        'cf_depreciation',
        -0.12345678901234568,
        1.2345678901234566e-7,
        /^cf_depreciation is longer than 20 characters\.$/,
      ],
      ['cf_quantity', 1e18, 1e19, /^cf_quantity has more than 19 digits\.$/],
      ['cf_weight_kg', 1e16, 1e17, /^cf_weight_kg has more than 17 digits\.$/],
    ];
    for (const [field, atLimit, onePast, message] of cases) {
      const ok = await call('POST', '/entities', { ...NEW_ASSET, [field]: atLimit });
      expect(ok.status, `${field} at the limit: ${JSON.stringify(ok.body).slice(0, 200)}`).toBe(
        201,
      );
      const before = snapshot(emulator);
      const refused = await call('POST', '/entities', { ...NEW_ASSET, [field]: onePast });
      expect(refused.status, `${field} one past`).toBe(400);
      expect(refused.body.message).toMatch(message);
      const patched = await call('PATCH', `/entities/${ok.body.entity.id}`, { [field]: onePast });
      expect(patched.status, `${field} one past on update`).toBe(400);
      expect(snapshot(emulator)).toEqual(before);
    }
  });

  it('multi-select: 100 selectable, not 101', async () => {
    const { call, db, emulator, fieldId } = await setup();
    const insert = db.prepare(
      "INSERT INTO field_options (id, field_id, layout_id, kind, value, position) VALUES (?, ?, NULL, 'custom_option', ?, ?)",
    );
    const names = Array.from({ length: 101 }, (_, i) => `Option ${i}`);
    names.forEach((name, i) =>
      insert.run(emulator.state.nextId(), fieldId('cf_tags'), name, 100 + i),
    );
    const ok = await call('POST', '/entities', { ...NEW_ASSET, cf_tags: names.slice(0, 100) });
    expect(ok.status).toBe(201);
    expect(ok.body.entity.cf_tags).toHaveLength(100);
    const refused = await call('POST', '/entities', { ...NEW_ASSET, cf_tags: names });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('cf_tags has 101 items; at most 100 are allowed.');
    const grow = await call('PATCH', `/entities/${ok.body.entity.id}`, {
      cf_tags: [{ add: ['Option 100'] }],
    });
    expect(grow.status).toBe(400);
    expect(grow.body.message).toBe('cf_tags would hold 101 items; at most 100 are allowed.');
    const swap = await call('PATCH', `/entities/${ok.body.entity.id}`, {
      cf_tags: [{ add: ['Option 100'], remove: ['Option 0'] }],
    });
    expect(swap.status).toBe(200);
    expect(swap.body.entity.cf_tags).toHaveLength(100);
  });

  it('multi-user: 500 users, not 501', async () => {
    const { call, db, emulator, portalId } = await setup();
    const addUser = db.prepare(
      `INSERT INTO users (zpuid, id, email, password, first_name, last_name, dc)
       VALUES (?, ?, ?, 'x', 'Extra', ?, 'us')`,
    );
    const join = db.prepare('INSERT INTO portal_users (portal_id, zpuid) VALUES (?, ?)');
    const zpuids = Array.from({ length: 501 }, (_, i) => {
      const zpuid = String(emulator.state.nextId());
      addUser.run(zpuid, emulator.state.nextId(), `extra${i}@example.com`, `User ${i}`);
      join.run(Number(portalId), zpuid);
      return { zpuid };
    });
    const ok = await call('POST', '/entities', { ...NEW_ASSET, cf_watchers: zpuids.slice(0, 500) });
    expect(ok.status).toBe(201);
    expect(ok.body.entity.cf_watchers).toHaveLength(500);
    const refused = await call('POST', '/entities', { ...NEW_ASSET, cf_watchers: zpuids });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('cf_watchers has 501 items; at most 500 are allowed.');
  });
});
