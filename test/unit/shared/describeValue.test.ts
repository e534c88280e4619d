import { describe, expect, it } from 'vitest';
import {
  CUSTOM_FIELD_TYPE_NAMES,
  type CustomFieldType,
} from '@portaldesk/portal-api/domain/customFieldTypes';
import {
  describeValue,
  fieldValue,
  safeHttpUrl,
  type ValueView,
} from '../../../src/shared/recordValues/describeValue';
import { rowCells } from '../../../src/shared/recordValues/cellText';
import { sampleRow } from '../renderer/records/sampleRow';

const context = { timeZone: 'Asia/Kolkata', locale: 'en-GB' };

/** One value of each custom field type in the API's shape, and how it must look. */
const EXAMPLES: Record<CustomFieldType, [unknown, ValueView]> = {
  single_line: ['SN-42', { kind: 'text', text: 'SN-42' }],
  multi_line: ['First line\nsecond', { kind: 'text', text: 'First line\nsecond' }],
  pick_list: ['Hardware', { kind: 'text', text: 'Hardware' }],
  multi_select: [['Critical', 'Leased'], { kind: 'chips', items: ['Critical', 'Leased'] }],
  user_pick_list: [
    { zpuid: '5001', name: 'Maya Raman', email: 'maya@example.test' },
    { kind: 'user', text: 'Maya Raman', title: 'maya@example.test' },
  ],
  multi_user: [
    [
      { zpuid: '5001', name: 'Maya Raman' },
      { zpuid: '5009', name: null },
    ],
    { kind: 'chips', items: ['Maya Raman', 'User 5009'] },
  ],
  date: ['2026-03-05', { kind: 'text', text: '5 Mar 2026' }],
  time: ['14:30', { kind: 'text', text: '14:30' }],
  // 10:00 UTC is 15:30 in Kolkata: times show in the portal's zone.
  timestamp: [
    '2026-03-05T10:00:00.000Z',
    { kind: 'text', text: '5 Mar 2026, 15:30', title: '2026-03-05T10:00:00.000Z' },
  ],
  check_box: [true, { kind: 'check', checked: true }],
  currency: [
    { currency_code: 'EUR', formatted_amount: 'EUR 1234.5', amount: 1234.5 },
    { kind: 'text', text: 'EUR\u00a01,234.50', align: 'end' },
  ],
  percentage: [45, { kind: 'text', text: '45 %', align: 'end' }],
  number: [1234567, { kind: 'text', text: '1,234,567', align: 'end' }],
  decimal: [3.25, { kind: 'text', text: '3.25', align: 'end' }],
  email: ['sales@bluefin.example', { kind: 'text', text: 'sales@bluefin.example' }],
  phone: ['+1 555 123 4567', { kind: 'text', text: '+1 555 123 4567' }],
  url: [
    'https://docs.example.com/a/1',
    { kind: 'link', text: 'https://docs.example.com/a/1', href: 'https://docs.example.com/a/1' },
  ],
};

describe('value views', () => {
  it.each(CUSTOM_FIELD_TYPE_NAMES)('shows a %s value as its type says', (type) => {
    const [value, view] = EXAMPLES[type];
    expect(describeValue(type, value, context)).toEqual(view);
  });

  it.each(CUSTOM_FIELD_TYPE_NAMES)('shows an empty %s as empty, not as "null"', (type) => {
    for (const empty of [null, undefined, '', []]) {
      expect(describeValue(type, empty, context)).toEqual({ kind: 'empty' });
    }
  });

  it('shows an unchecked box as No, not as empty', () => {
    expect(describeValue('check_box', false, context)).toEqual({ kind: 'check', checked: false });
  });

  it('keeps a currency Intl does not know readable, with its code', () => {
    expect(describeValue('currency', { currency_code: 'XBT', amount: 2.5 }, context)).toMatchObject(
      { text: expect.stringMatching(/XBT\s*2\.50/) },
    );
    expect(describeValue('currency', { formatted_amount: 'USD 9', amount: null }, context)).toEqual(
      { kind: 'text', text: 'USD 9', align: 'end' },
    );
    // Codes that are not ISO's three capitals, which the editor and the service take: shown too,
    // or the amount reads as the field's own currency (the table, exports and copies alike).
    for (const code of ['jpy', 'USDT', ' Bitcoin ']) {
      expect(describeValue('currency', { currency_code: code, amount: 1500 }, context)).toEqual({
        kind: 'text',
        text: `${code.trim()} 1,500`,
        align: 'end',
      });
    }
  });

  it('never makes a link of anything but a web address', () => {
    expect(safeHttpUrl('javascript:alert(1)')).toBeNull();
    expect(safeHttpUrl('file:///etc/passwd')).toBeNull();
    expect(safeHttpUrl('not a url')).toBeNull();
    expect(describeValue('url', 'javascript:alert(1)', context)).toEqual({
      kind: 'text',
      text: 'javascript:alert(1)',
    });
  });

  it('shows the fixed fields: status with its colour, owner by name, project, dates', () => {
    const row = sampleRow();
    expect(describeValue('status', fieldValue(row, 'status'), context)).toEqual({
      kind: 'status',
      text: 'Approved',
      color: '#1f8a4c',
      closed: true,
    });
    expect(describeValue('owner', fieldValue(row, 'owner'), context)).toEqual({
      kind: 'user',
      text: 'Jonas Weber',
      title: 'jonas@example.test',
    });
    expect(describeValue('project', fieldValue(row, 'project'), context)).toEqual({
      kind: 'text',
      text: 'Warehouse Automation',
    });
    expect(describeValue('check_box', fieldValue(row, 'is_external'), context)).toEqual({
      kind: 'check',
      checked: false,
    });
    expect(fieldValue(row, 'cf_cost')).toEqual(row.custom.cf_cost);
    expect(describeValue('id', fieldValue(row, 'id'), context)).toEqual({
      kind: 'text',
      text: row.id,
      mono: true,
    });
  });

  it('shows a value of the wrong shape as its text: never empty, never "[object Object]"', () => {
    expect(describeValue('user_pick_list', { zpuid: 5 }, context)).toEqual({
      kind: 'text',
      text: '{"zpuid":5}',
    });
    expect(describeValue('multi_select', [{ id: '41' }, 7], context)).toEqual({
      kind: 'chips',
      items: ['{"id":"41"}', '7'],
    });
    expect(describeValue('status', {}, context)).toEqual({ kind: 'text', text: '{}' });
    expect(describeValue('url', { href: 'https://x.example' }, context)).toEqual({
      kind: 'text',
      text: '{"href":"https://x.example"}',
    });
  });

  it('shows an instant as stored when the portal names a zone Intl does not know', () => {
    expect(
      describeValue('timestamp', '2026-03-05T10:00:00.000Z', { timeZone: 'Mars/Olympus' }),
    ).toMatchObject({ text: '2026-03-05T10:00:00.000Z' });
  });
});

describe('raw cells', () => {
  it("write the status in the API's shape (spec: {id,name,color,is_closed_type})", () => {
    const row = sampleRow({
      status: { id: '2003', name: 'Approved', color: '#1f8a4c', isClosedType: true },
    });
    const [status, name] = rowCells(
      [
        { key: 'status', type: 'status' },
        { key: 'name', type: 'name' },
      ],
      row,
      { values: 'raw', context, defuse: false },
    );
    expect(JSON.parse(String(status))).toEqual({
      id: '2003',
      name: 'Approved',
      color: '#1f8a4c',
      is_closed_type: true,
    });
    expect(name).toBe(row.name);
    // Shown cells are unchanged: the status's name.
    expect(
      rowCells([{ key: 'status', type: 'status' }], row, {
        values: 'shown',
        context,
        defuse: false,
      }),
    ).toEqual(['Approved']);
  });
});
