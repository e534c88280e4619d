/**
 * May `url` be handed to the operating system's browser? Only http(s) URLs whose origin is exactly
 * one of `allowedOrigins` (the active service profile's accounts servers, for sign-in), without
 * credentials in the URL. Exact origin comparison refuses look-alikes such as
 * `accounts.example.com.evil.net`, `accounts.example.com@evil.net` or punycode homographs.
 */
export function mayOpenExternally(url: string, allowedOrigins: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  if (parsed.username !== '' || parsed.password !== '') return false;
  return allowedOrigins.some((allowed) => {
    try {
      return new URL(allowed).origin === parsed.origin;
    } catch {
      return false;
    }
  });
}
