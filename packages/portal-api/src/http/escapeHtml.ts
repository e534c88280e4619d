/**
 * Text as HTML holds it, in an element or a quoted attribute (either quote): the pages the engine
 * writes itself (the sign-in's loopback answer, web mode's launch page) and the emulator's
 * accounts pages. In portal-api because the emulator may import nothing else of ours. Pure.
 */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
