/**
 * The engine's own pages (the sign-in's loopback answer, web mode's launch page) hold text from
 * outside (a service's error, an address) only escaped: no text can close an element or an
 * attribute, and the browser reads back exactly the text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '@portaldesk/portal-api/http/escapeHtml';
import { redirectPageHtml } from '../../../src/main/openThroughPage';

const unescape = (html: string) =>
  html
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

describe('escapeHtml', () => {
  it('leaves no character that ends an element or an attribute, and reads back as the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const html = escapeHtml(text);
        expect(html).not.toMatch(/[<>"']/);
        expect(html.replace(/&(amp|lt|gt|quot|#39);/g, '')).not.toContain('&');
        expect(unescape(html)).toBe(text);
      }),
    );
  });

  it("keeps an address with quotes and markup inside the launch page's attributes", () => {
    const page = redirectPageHtml(`http://127.0.0.1:1/#"><script>alert(1)</script>'`);
    expect(page).not.toContain('<script>');
    expect(page.match(/"/g)?.length).toBe(page.match(/="[^"]*"/g)!.length * 2);
  });
});
