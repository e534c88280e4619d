const CSP_META = /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")[^"]*(")/i;

/**
 * The page with its CSP meta tag set to `csp`. The build writes the desktop's policy into
 * index.html; a page obeys every policy it is given, so web mode must replace that tag (not only
 * add a header) for its own socket to be allowed. A page without the tag is returned unchanged.
 */
export function replaceCspMeta(html: string, csp: string): string {
  // A function replacement: `$` in the policy must not be read as a replacement pattern.
  return html.replace(CSP_META, (_tag, start: string, end: string) => `${start}${csp}${end}`);
}
