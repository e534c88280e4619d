/**
 * Which Host headers a server on this computer's loopback answers. Binding to 127.0.0.1 keeps
 * other machines out, not other web pages: a page on evil.example can re-point its name at
 * 127.0.0.1 (DNS rebinding) and then call the server from the victim's browser as same-origin.
 * Such a request still names evil.example in its Host header, so a loopback server answers only
 * requests naming a loopback address (or a name it was explicitly told to answer to) with its
 * own port. Shared by web mode, the router's ingress and admin API, and the emulator.
 */

/** The names a loopback server answers to, whatever else it is configured with. */
export const LOOPBACK_HOST_NAMES: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];

/** An IPv6 address as a Host header writes it (`::1` → `[::1]`), lower case. */
function hostName(name: string): string {
  const lower = name.toLowerCase();
  return lower.includes(':') && !lower.startsWith('[') ? `[${lower}]` : lower;
}

/**
 * Every Host header value accepted for a server on `port`: each name with the port, and the bare
 * name on port 80, where browsers leave the port out.
 */
export function allowedHostHeaders(port: number, extraNames: readonly string[] = []): string[] {
  const names = [...new Set([...LOOPBACK_HOST_NAMES, ...extraNames.map(hostName)])];
  return names.flatMap((name) => (port === 80 ? [`${name}:80`, name] : [`${name}:${port}`]));
}

/** A missing Host (only HTTP/1.0 clients omit it) is refused too: browsers always send one. */
export function isAllowedHostHeader(
  host: string | undefined,
  port: number,
  extraNames: readonly string[] = [],
): boolean {
  return host !== undefined && allowedHostHeaders(port, extraNames).includes(host.toLowerCase());
}

/** The refusal's words: what was refused, that nothing was done, and how to address the server. */
export function foreignHostMessage(port: number, extraNames: readonly string[] = []): string {
  const names = [...new Set([...LOOPBACK_HOST_NAMES, ...extraNames.map(hostName)])];
  return `This server answers only requests addressed to ${names.map((name) => `${name}:${port}`).join(', ')}; nothing was done. Use one of these addresses.`;
}
