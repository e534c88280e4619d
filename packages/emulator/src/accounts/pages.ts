/**
 * The accounts server's HTML: the consent page (sign in, then Accept or Reject) and the error
 * page. Self-contained (inline style, no scripts, no external assets) so it works offline and
 * under a strict Content-Security-Policy.
 */
import type { ApiReply } from '../http/types';
import { authRequestFields, type AuthRequest } from './authRequest';
import { escapeHtml } from '@portaldesk/portal-api/http/escapeHtml';

export const CONSENT_PATH = '/oauth/v2/auth/consent';

/** No scripts, no framing, nothing fetched; forms may post anywhere (the consent form posts here). */
const PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
};

const STYLE = `
body{font-family:system-ui,sans-serif;background:#f3f4f6;color:#111827;margin:0}
main{max-width:28rem;margin:3rem auto;background:#fff;border-radius:.5rem;padding:2rem;
box-shadow:0 1px 3px rgba(0,0,0,.15)}
h1{font-size:1.25rem;margin-top:0}
label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input[type=email],input[type=password]{width:100%;box-sizing:border-box;padding:.5rem;
border:1px solid #9ca3af;border-radius:.25rem}
ul{padding-left:1.25rem}
.error{background:#fee2e2;color:#991b1b;padding:.5rem .75rem;border-radius:.25rem}
.buttons{display:flex;gap:.75rem;margin-top:1.25rem}
button{flex:1;padding:.6rem;border-radius:.25rem;border:1px solid #6b7280;font-size:1rem;cursor:pointer}
button[value=accept]{background:#2563eb;border-color:#2563eb;color:#fff}
code{font-size:.9em}`;

function page(status: number, title: string, body: string): ApiReply {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
  return { status, raw: html, contentType: 'text/html; charset=utf-8', headers: PAGE_HEADERS };
}

export interface ConsentView {
  request: AuthRequest;
  clientName: string;
  email: string;
  /** Shown above the form after a failed sign-in. */
  error?: string;
}

/** The sign-in and consent form; it posts the checked request back with the user's decision. */
export function consentPage(view: ConsentView, status = 200): ApiReply {
  const hidden = Object.entries(authRequestFields(view.request))
    .map(
      ([name, value]) =>
        `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`,
    )
    .join('\n');
  const scopes = view.request.scopes
    .map((scope) => `<li><code>${escapeHtml(scope)}</code></li>`)
    .join('');
  const access =
    view.request.accessType === 'offline'
      ? '<p>It will keep access until you revoke it (offline access).</p>'
      : '';
  return page(
    status,
    'Sign in and authorize',
    `<h1>${escapeHtml(view.clientName)} wants to access your account</h1>
<p>It asks for:</p><ul>${scopes}</ul>${access}
${view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>` : ''}
<form method="post" action="${CONSENT_PATH}">
${hidden}
<label for="email">Email</label>
<input id="email" type="email" name="email" autocomplete="username" value="${escapeHtml(view.email)}">
<label for="password">Password</label>
<input id="password" type="password" name="password" autocomplete="current-password">
<div class="buttons">
<button type="submit" name="decision" value="accept">Accept</button>
<button type="submit" name="decision" value="reject">Reject</button>
</div>
</form>`,
  );
}

/** An OAuth error shown on the accounts server, never sent to an unverified redirect_uri. */
export function errorPage(error: string, detail: string): ApiReply {
  return page(
    400,
    error,
    `<h1>${escapeHtml(error)}</h1>
<p class="error" role="alert">${escapeHtml(detail)}</p>
<p>The application that sent you here made an invalid authorization request.</p>`,
  );
}

export function redirect(location: string): ApiReply {
  return {
    status: 302,
    raw: '',
    contentType: 'text/plain',
    headers: { Location: location, 'Cache-Control': 'no-store' },
  };
}
