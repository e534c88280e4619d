/**
 * The virtualised table renders only the rows on screen, but its one tab stop must always exist:
 * when the focused row scrolls out of the rendered window, it stays rendered ("pinned") where it
 * belongs, so Tab comes back to it and a focused cell is never removed from under the keyboard
 * (which would drop the focus to the page's body). Pure.
 */

/** The row holding the tab stop: the focused one, kept inside the list; null for an empty list. */
export function tabStopRow(focused: number, total: number): number | null {
  if (total <= 0) return null;
  return Math.max(0, Math.min(total - 1, focused));
}

/**
 * The row to render besides the virtualiser's window [first, last] (`rendered` false when it
 * renders nothing yet): the tab stop's row when it lies outside, otherwise null.
 */
export function pinnedRow(
  tabStop: number | null,
  window: { first: number; last: number; rendered: boolean },
): number | null {
  if (tabStop === null) return null;
  if (window.rendered && tabStop >= window.first && tabStop <= window.last) return null;
  return tabStop;
}
