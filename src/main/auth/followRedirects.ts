/**
 * A browser without a window, for the embedded demo (its accounts server approves at once and
 * redirects straight back to the loopback listener) and for tests: it follows the redirects of
 * an authorization URL and returns the page it ends on. The real service always gets the
 * system browser.
 */

/** Ours: an authorization answer is one or two redirects away; more means a loop. */
const MAX_REDIRECTS = 5;

export interface FollowedPage {
  url: string;
  status: number;
  body: string;
}

export async function followRedirects(
  start: string,
  fetchImpl: typeof globalThis.fetch = globalThis.fetch,
): Promise<FollowedPage> {
  let url = start;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const response = await fetchImpl(url, { redirect: 'manual' });
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      url = new URL(location, url).toString();
      continue;
    }
    return { url, status: response.status, body: await response.text() };
  }
  throw new Error(`More than ${MAX_REDIRECTS} redirects from ${new URL(start).origin}.`);
}
