// @vitest-environment happy-dom
/**
 * Every custom field type's value as the records table and the detail panel put it in the page:
 * what a person reads (and a screen reader says), empty values, values of the wrong shape, and
 * links that open only through the engine's link opener, never by navigating this window.
 */
import { createElement } from 'react';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  CUSTOM_FIELD_TYPE_NAMES,
  type CustomFieldType,
} from '@portaldesk/portal-api/domain/customFieldTypes';
import { FieldValue } from '../../../../src/renderer/src/features/records/FieldValue';
import { LinkOpenerContext } from '../../../../src/renderer/src/features/records/LinkOpenerContext';
import { setupUser, useDomTestEnvironment } from '../support/dom';

useDomTestEnvironment();

const context = { timeZone: 'Asia/Kolkata', locale: 'en-GB' };
const NBSP = '\u00a0';
/** The record whose field the value is: the opener gets it with the address. */
const RECORD_ID = '1100000000042';

function show(
  type: string,
  value: unknown,
  options: {
    variant?: 'cell' | 'detail';
    opener?: (url: string, recordId: string) => void;
    onRow?: () => void;
    recordId?: string;
  } = {},
): HTMLElement {
  const { container } = render(
    createElement(
      'div',
      { role: 'row', onClick: options.onRow },
      createElement(
        LinkOpenerContext.Provider,
        { value: options.opener ?? null },
        createElement(FieldValue, {
          type,
          value,
          context,
          variant: options.variant,
          recordId: 'recordId' in options ? options.recordId : RECORD_ID,
        }),
      ),
    ),
  );
  const row = container.firstElementChild as HTMLElement;
  return row.firstElementChild as HTMLElement;
}

const chips = (element: HTMLElement) =>
  [...element.querySelectorAll('.chip')].map((chip) => chip.textContent);

interface Expected {
  value: unknown;
  /** What the page says. */
  text: string;
  /** Extra checks on the rendered element. */
  check?: (element: HTMLElement) => void;
}

/** One value of each custom field type in the API's shape (spec 001, "Custom field value types"). */
const EXAMPLES: Record<CustomFieldType, Expected> = {
  single_line: {
    value: 'SN-42',
    text: 'SN-42',
    // A cell keeps to one line; the whole text is in its tooltip.
    check: (el) => expect(el.getAttribute('title')).toBe('SN-42'),
  },
  multi_line: { value: 'First line\nsecond', text: 'First line\nsecond' },
  pick_list: { value: 'Hardware', text: 'Hardware' },
  multi_select: {
    value: ['Critical', 'Leased'],
    text: 'CriticalLeased',
    check: (el) => expect(chips(el)).toEqual(['Critical', 'Leased']),
  },
  user_pick_list: {
    value: { zpuid: '5001', name: 'Maya Raman', email: 'maya@example.test' },
    text: 'Maya Raman',
    check: (el) => expect(el.getAttribute('title')).toBe('maya@example.test'),
  },
  multi_user: {
    value: [
      { zpuid: '5001', name: 'Maya Raman' },
      { zpuid: '5009', name: null },
    ],
    text: 'Maya RamanUser 5009',
    check: (el) => expect(chips(el)).toEqual(['Maya Raman', 'User 5009']),
  },
  date: { value: '2026-03-05', text: '5 Mar 2026' },
  time: { value: '14:30', text: '14:30' },
  timestamp: {
    // 10:00 UTC is 15:30 in the portal's zone (Kolkata); the stored instant is the tooltip.
    value: '2026-03-05T10:00:00.000Z',
    text: '5 Mar 2026, 15:30',
    check: (el) => expect(el.getAttribute('title')).toBe('2026-03-05T10:00:00.000Z'),
  },
  check_box: {
    value: true,
    text: '✓',
    check: () => expect(screen.getByRole('img', { name: 'Yes' })).toBeTruthy(),
  },
  currency: {
    value: { currency_code: 'JPY', formatted_amount: 'JPY 34011', amount: 34011 },
    text: `JPY${NBSP}34,011`,
    check: (el) => expect(el.classList.contains('value--number')).toBe(true),
  },
  percentage: { value: 45, text: '45 %' },
  number: { value: 1234567, text: '1,234,567' },
  decimal: { value: 3.25, text: '3.25' },
  email: { value: 'sales@bluefin.example', text: 'sales@bluefin.example' },
  phone: { value: '+1 (555) 123-4567', text: '+1 (555) 123-4567' },
  url: {
    value: 'https://docs.example.com/a?b=1&c=2',
    text: 'https://docs.example.com/a?b=1&c=2',
    check: () =>
      expect(
        screen
          .getByRole('link', { name: 'https://docs.example.com/a?b=1&c=2' })
          .getAttribute('href'),
      ).toBe('https://docs.example.com/a?b=1&c=2'),
  },
};

describe('field values: every custom field type', () => {
  it.each(CUSTOM_FIELD_TYPE_NAMES)('shows a %s value as people read it', (type) => {
    const { value, text, check } = EXAMPLES[type];
    const element = show(type, value);
    expect(element.textContent).toBe(text);
    check?.(element);
  });

  it('shows currency with its code in any amount, and a code Intl does not know', () => {
    expect(show('currency', { currency_code: 'EUR', amount: 1234.5 }).textContent).toBe(
      `EUR${NBSP}1,234.50`,
    );
    expect(show('currency', { currency_code: 'XBT', amount: 2.5 }).textContent).toMatch(
      /^XBT\s2\.50$/,
    );
  });

  it('shows an unchecked box as No, which is not empty', () => {
    const element = show('check_box', false);
    expect(screen.getByRole('img', { name: 'No' })).toBe(element);
    expect(element.textContent).toBe('✗');
  });

  it('shows a multi-line value whole in the detail panel', () => {
    expect(show('multi_line', 'a\nb', { variant: 'detail' }).classList).toContain('value--whole');
  });

  it('shows the fixed fields: status with its colour, owner by name, project, id', () => {
    const status = show('status', {
      id: '2003',
      name: 'Approved',
      color: '#1f8a4c',
      isClosedType: true,
    });
    expect(status.textContent).toBe('Approved');
    expect(status.classList).toContain('is-closed');
    expect((status.querySelector('.status-chip__dot') as HTMLElement).style.background).toBe(
      '#1f8a4c',
    );
    expect(show('owner', { zpuid: '5002', name: 'Jonas Weber', email: null }).textContent).toBe(
      'Jonas Weber',
    );
    expect(show('project', { id: '77', name: null }).textContent).toBe('Project 77');
    expect(show('id', '1100000000001').classList).toContain('mono');
  });
});

const FIXED_TYPES = ['status', 'owner', 'project', 'id'];

describe('field values: empty', () => {
  it.each([...CUSTOM_FIELD_TYPE_NAMES, ...FIXED_TYPES])(
    'shows an empty %s as a dash named "empty"',
    (type) => {
      for (const empty of [null, undefined, '', []]) {
        const element = show(type, empty);
        expect(element.getAttribute('aria-label')).toBe('empty');
        expect(element.textContent).toBe('—');
        document.body.innerHTML = '';
      }
    },
  );
});

/** Values of shapes no field type has, some carrying markup. */
const WRONG_SHAPES: unknown[] = [
  {},
  { name: '<img src=x onerror="window.hacked=1">' },
  { zpuid: 7, amount: 'lots', currency_code: 5, color: { red: 1 } },
  42,
  true,
  'just text <b>bold</b>',
  ['a', { b: 1 }],
  [[1, 2]],
  [null],
];

describe('field values: wrong shapes', () => {
  it.each([...CUSTOM_FIELD_TYPE_NAMES, ...FIXED_TYPES])(
    'shows a %s of the wrong shape as text, never as markup, "[object Object]" or empty',
    (type) => {
      for (const value of WRONG_SHAPES) {
        const element = show(type, value);
        const text = element.textContent ?? '';
        const what = `${type} ${JSON.stringify(value)}`;
        expect(element.querySelectorAll('img, b, script'), what).toHaveLength(0);
        expect(text, what).not.toMatch(/\[object Object\]|undefined|NaN/);
        // A value that is there is never announced as missing.
        expect(element.getAttribute('aria-label'), what).not.toBe('empty');
        expect(text.trim(), what).not.toBe('');
        // Only a web address in a URL field becomes a link.
        expect(screen.queryByRole('link'), what).toBeNull();
        document.body.innerHTML = '';
      }
      expect((window as { hacked?: number }).hacked).toBeUndefined();
    },
  );

  it('keeps what a wrong shape says readable', () => {
    expect(chips(show('multi_select', [{ id: '41', name: 'Critical' }]))).toEqual([
      '{"id":"41","name":"Critical"}',
    ]);
    expect(show('currency', 'USD 10').textContent).toBe('USD 10');
    expect(show('percentage', '45%').textContent).toBe('45%');
    expect(show('date', '05/03/2026').textContent).toBe('05/03/2026');
    expect(show('timestamp', 'yesterday').textContent).toBe('yesterday');
  });
});

describe('field values: links', () => {
  const URL_VALUE = 'https://intranet.example/asset/1?tab=files';

  /** Every click and middle click that reaches the window, to see whether its default ran. */
  function watchClicks() {
    const events: MouseEvent[] = [];
    const keep = (event: Event) => events.push(event as MouseEvent);
    window.addEventListener('click', keep, true);
    window.addEventListener('auxclick', keep, true);
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    return {
      events,
      open,
      stop: () => {
        window.removeEventListener('click', keep, true);
        window.removeEventListener('auxclick', keep, true);
      },
    };
  }

  it('opens through the link opener on click, with any modifier, by middle click and with Enter', async () => {
    const user = setupUser();
    const opener = vi.fn();
    const onRow = vi.fn();
    show('url', URL_VALUE, { opener, onRow });
    const link = screen.getByRole('link', { name: URL_VALUE });
    const clicks = watchClicks();
    const start = window.location.href;

    await user.click(link);
    for (const modifier of ['Control', 'Shift', 'Meta', 'Alt']) {
      await user.keyboard(`{${modifier}>}`);
      await user.click(link);
      await user.keyboard(`{/${modifier}}`);
    }
    await user.pointer({ keys: '[MouseMiddle]', target: link });
    link.focus();
    await user.keyboard('{Enter}');
    clicks.stop();

    expect(opener.mock.calls).toEqual(Array.from({ length: 7 }, () => [URL_VALUE, RECORD_ID]));
    expect(clicks.events.map((e) => e.type)).toEqual([
      ...Array.from({ length: 5 }, () => 'click'),
      'auxclick',
      'click',
    ]);
    // The page's own handling never ran: nothing navigated or opened a window.
    expect(clicks.events.every((event) => event.defaultPrevented)).toBe(true);
    expect(clicks.open).not.toHaveBeenCalled();
    expect(window.location.href).toBe(start);
    // Opening a link is not a click on its row (which would select it and open the panel).
    expect(onRow).not.toHaveBeenCalled();
  });

  it('gives the opener the address exactly as the record holds it (the engine looks for that text)', async () => {
    // The link's href is the address in its standard form; the record's own text often is not
    // (no slash after the host, upper-case scheme or host, a space): the engine, finding no such
    // text in the record, refused to open it.
    const user = setupUser();
    for (const value of ['https://intranet.example', 'HTTPS://Intranet.Example/a b?x=1']) {
      const opener = vi.fn();
      show('url', value, { opener });
      await user.click(screen.getByRole('link'));
      expect(opener.mock.calls, value).toEqual([[value, RECORD_ID]]);
      document.body.innerHTML = '';
    }
  });

  it('leaves a right click alone, so the link can still be copied', async () => {
    const user = setupUser();
    const opener = vi.fn();
    show('url', URL_VALUE, { opener });
    await user.pointer({ keys: '[MouseRight]', target: screen.getByRole('link') });
    expect(opener).not.toHaveBeenCalled();
  });

  it('never calls the opener without the record that holds the address', async () => {
    const user = setupUser();
    const opener = vi.fn();
    show('url', URL_VALUE, { opener, recordId: undefined });
    const link = screen.getByRole('link');
    // The engine checks the address against that record: without one there is nothing to check.
    link.addEventListener('click', (event) => event.preventDefault());
    await user.click(link);
    expect(opener).not.toHaveBeenCalled();
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('makes no link of anything but a web address', () => {
    const opener = vi.fn();
    for (const value of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,x', 'www']) {
      const element = show('url', value, { opener });
      expect(screen.queryByRole('link'), value).toBeNull();
      expect(element.textContent).toBe(value);
      document.body.innerHTML = '';
    }
    // A link elsewhere than a URL field stays text.
    show('single_line', URL_VALUE, { opener });
    expect(screen.queryByRole('link')).toBeNull();
  });
});
