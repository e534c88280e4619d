import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { COLUMNS } from '../support/recordsColumns';
import { FIELD_KINDS, type FieldKind, type FilterField } from '@portaldesk/portal-api/filter';
import { FilterBuilder } from '../../../../src/renderer/src/features/filters/FilterBuilder';
import {
  addCriterion,
  builderConditions,
  EMPTY_DRAFT,
  setPattern,
  type DraftCriterion,
  type FilterDraft,
} from '../../../../src/renderer/src/features/filters/filterDraft';

// The builder offers only the fields with a filter kind.
const FIELDS: FilterField[] = COLUMNS.fields
  .filter((f) => f.filterKind !== null)
  .map((f) => ({
    name: f.key,
    kind: f.filterKind as FieldKind,
    label: f.label,
  }));

function render(draft: FilterDraft): string {
  return renderToStaticMarkup(
    createElement(FilterBuilder, {
      columns: COLUMNS,
      fields: FIELDS,
      draft,
      onChange: () => undefined,
    }),
  );
}

const one = (criterion: DraftCriterion) => addCriterion(EMPTY_DRAFT, criterion);

/** The options of the select labelled `label`. */
function options(html: string, label: string): { value: string; text: string }[] {
  const start = html.indexOf(`aria-label="${label}"`);
  expect(start, `no control labelled ${label}`).toBeGreaterThan(-1);
  const select = html.slice(start, html.indexOf('</select>', start));
  return [...select.matchAll(/<option[^>]*value="([^"]*)"[^>]*>([^<]*)<\/option>/g)].map((m) => ({
    value: m[1] ?? '',
    text: m[2] ?? '',
  }));
}

const decode = (text: string) => text.replaceAll('&quot;', '"').replaceAll('&amp;', '&');

describe('filter builder', () => {
  const kindField: Record<FieldKind, string> = {
    text: 'name',
    number: 'cf_cost',
    date: 'cf_due',
    datetime: 'created_time',
    boolean: 'cf_insured',
    status: 'status',
    user: 'owner',
    picklist: 'cf_category',
    multipicklist: 'cf_tags',
  };

  it.each(FIELD_KINDS)('offers the conditions of the %s group, aliases left out', (kind) => {
    const html = render(one({ field: kindField[kind], condition: 'is', values: [''] }));
    const offered = options(html, 'Condition of criterion 1').map((o) => o.text);
    expect(offered).toEqual(builderConditions(kind).map((c) => c.label));
    if (kind === 'date' || kind === 'datetime') {
      expect(offered).toContain('is overdue');
      expect(offered).not.toContain('is empty');
    }
    if (kind === 'status') expect(offered).toContain('is all open');
    if (kind === 'user') expect(offered).toContain('is a direct report of');
  });

  it('gives a date picker for dates and date-times, two of them for between', () => {
    const html = render(
      one({ field: 'cf_due', condition: 'between', values: ['2026-01-01', '2026-01-31'] }),
    );
    expect(html).toContain('aria-label="From of criterion 1"');
    expect(html).toContain('aria-label="To of criterion 1"');
    expect(html.match(/type="date"/g)).toHaveLength(2);
    expect(render(one({ field: 'created_time', condition: 'is', values: [''] }))).toContain(
      'type="date"',
    );
  });

  it('gives no value box to presets and a number box to numbers', () => {
    expect(render(one({ field: 'cf_due', condition: 'overdue', values: [] }))).not.toMatch(
      /aria-label="(Value|Values|From|To) of criterion 1"/,
    );
    expect(render(one({ field: 'cf_cost', condition: 'less_than', values: ['5'] }))).toContain(
      'inputMode="decimal"',
    );
  });

  it('picks statuses, people and options by the value the API wants', () => {
    const statuses = options(
      render(one({ field: 'status', condition: 'is', values: ['2001'] })),
      'Values of criterion 1',
    );
    expect(statuses).toEqual([
      { value: '2001', text: 'Open' },
      { value: '2003', text: 'Approved' },
    ]);
    const people = options(
      render(one({ field: 'owner', condition: 'direct_reports_of', values: [''] })),
      'Value of criterion 1',
    );
    expect(people.slice(1)).toEqual([
      { value: '5001', text: 'Maya Raman' },
      { value: '5002', text: 'Jonas Weber' },
    ]);
    // Pick lists are filtered by name, multi-selects by option id, multi-user fields by zpuid.
    expect(
      options(
        render(one({ field: 'cf_category', condition: 'is', values: [''] })),
        'Values of criterion 1',
      ).map((o) => o.value),
    ).toEqual(['Hardware', 'Network']);
    expect(
      options(
        render(one({ field: 'cf_tags', condition: 'is', values: [''] })),
        'Values of criterion 1',
      ).map((o) => o.value),
    ).toEqual(['41', '42']);
    expect(
      options(
        render(one({ field: 'cf_watchers', condition: 'is', values: [''] })),
        'Values of criterion 1',
      ).map((o) => o.text),
    ).toEqual(['Maya Raman', 'Jonas Weber']);
    expect(
      options(
        render(one({ field: 'cf_insured', condition: 'is', values: [''] })),
        'Values of criterion 1',
      ).map((o) => o.value),
    ).toEqual(['true', 'false']);
    expect(
      options(
        render(one({ field: 'status', condition: 'custom_condition', values: ['${ALL_OPEN}'] })),
        'Value of criterion 1',
      ).map((o) => o.text),
    ).toEqual(['All open statuses', 'All closed statuses']);
  });

  it('explains a bad pattern in place and does not offer to copy the filter', () => {
    const draft = setPattern(
      addCriterion(one({ field: 'name', condition: 'contains', values: ['dell'] }), {
        field: 'status',
        condition: 'all_open',
        values: [],
      }),
      '1 AND (2',
    );
    const html = render(draft);
    expect(html).toMatch(
      /aria-invalid="true"[^>]*value="1 AND \(2"|value="1 AND \(2"[^>]*aria-invalid="true"/,
    );
    expect(html).toMatch(/role="alert">The pattern [^<]*\./);
    expect(html).not.toContain('Copy as API filter');
    expect(html).toContain('The list still shows the last valid filter');
  });

  it('explains a bad value at its criterion', () => {
    const html = render(one({ field: 'cf_cost', condition: 'greater_than', values: ['ten'] }));
    expect(decode(html)).toMatch(/role="alert">First value "ten" is not a number/);
  });

  it('shows a valid filter in words and as the exact filter value', () => {
    const draft = addCriterion(one({ field: 'name', condition: 'contains', values: ['dell'] }), {
      field: 'status',
      condition: 'all_open',
      values: [],
    });
    const html = decode(render(draft));
    expect(html).toContain('Name contains "dell" AND Status is all open');
    expect(html).toContain(
      '{"criteria":[{"field_name":"name","criteria_condition":"contains","value":["dell"]},{"field_name":"status","criteria_condition":"all_open"}],"pattern":"1 AND 2"}',
    );
    expect(html).toContain('Copy as API filter');
  });
});
