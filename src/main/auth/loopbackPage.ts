/**
 * The page the browser shows after coming back to PortalDesk's loopback listener. Self-contained
 * (no scripts, no external assets) and says what to do next. Pure.
 */
import { escapeHtml } from '@portaldesk/portal-api/http/escapeHtml';

export function loopbackPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;background:#f3f4f6;color:#111827;margin:0}
main{max-width:30rem;margin:4rem auto;background:#fff;border-radius:.5rem;padding:2rem;
box-shadow:0 1px 3px rgba(0,0,0,.15)}h1{font-size:1.25rem;margin-top:0}</style></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p></main></body></html>`;
}

export const LOOPBACK_PAGES = {
  received: loopbackPage(
    'PortalDesk received your sign-in',
    'You can close this tab and return to PortalDesk, which finishes the sign-in.',
  ),
  refused: loopbackPage(
    'The sign-in did not complete',
    'You can close this tab: PortalDesk shows what happened and what to do.',
  ),
  wrongState: loopbackPage(
    'This answer belongs to another sign-in',
    'PortalDesk is waiting for a newer sign-in and ignored this one; nothing was done. Close this tab and use the sign-in page PortalDesk opened last.',
  ),
  notFound: loopbackPage('Not found', 'PortalDesk is waiting for a sign-in on another path.'),
};
