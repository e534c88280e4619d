import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FieldValue } from '../../../../src/renderer/src/features/records/FieldValue';

const context = { timeZone: 'UTC', locale: 'en-GB' };
const render = (type: string, value: unknown, variant?: 'cell' | 'detail') =>
  renderToStaticMarkup(createElement(FieldValue, { type, value, context, variant }));

describe('FieldValue', () => {
  it('renders multi-selects and multi-user fields as chips', () => {
    const html = render('multi_select', ['Critical', 'Leased']);
    expect(html.match(/class="chip"/g)).toHaveLength(2);
    expect(html).toContain('>Critical<');
    expect(render('multi_user', [{ zpuid: '1', name: 'Maya Raman' }])).toContain(
      '<span class="chip">Maya Raman</span>',
    );
  });

  it('renders a URL as a link that opens outside the page without access to it', () => {
    const html = render('url', 'https://docs.example.com/a?b=1&c=2');
    expect(html).toContain('href="https://docs.example.com/a?b=1&amp;c=2"');
    expect(html).toContain('target="_blank"');
    expect(html).toContain('rel="noopener noreferrer"');
    expect(render('url', 'javascript:alert(1)')).not.toContain('<a');
  });

  it('renders check boxes as a mark named Yes or No', () => {
    expect(render('check_box', true)).toContain('aria-label="Yes"');
    expect(render('check_box', false)).toContain('aria-label="No"');
  });

  it('renders a status with its colour and a user by name', () => {
    const status = render('status', { id: '1', name: 'Open', color: '#2a64d6' });
    expect(status).toContain('background:#2a64d6');
    expect(status).toContain('Open');
    expect(render('user_pick_list', { zpuid: '5', name: 'Jonas Weber' })).toContain('Jonas Weber');
  });

  it('renders currency with its code, right-aligned, and empty values as a dash', () => {
    const html = render('currency', { currency_code: 'JPY', amount: 34011 });
    expect(html).toContain('value--number');
    expect(html).toMatch(/JPY\s34,011/);
    expect(render('number', null)).toContain('aria-label="empty"');
  });

  it('keeps record text as text, never markup', () => {
    const html = render('single_line', '<img src=x onerror=alert(1)>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img');
  });

  it('shows a multi-line value whole in the detail panel', () => {
    expect(render('multi_line', 'a\nb', 'detail')).toContain('value--whole');
    expect(render('multi_line', 'a\nb', 'cell')).not.toContain('value--whole');
  });
});
