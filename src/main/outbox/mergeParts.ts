/**
 * A compound value changed here and on the service, merged part by part (STYLE.md: "the parts
 * not touched are sent back exactly as they were"). Pure.
 *
 * - multi-select and multi-user: the items are the parts. My change is the items I added and
 *   removed (the spec's `{add, remove}`); laid over the service's list it keeps every item someone
 *   else added or removed. Two changes made from one base never contradict each other (I can
 *   only add what the base lacks and remove what it has; so can they), so these always merge.
 * - currency: its code and its amount. A part I left at its base takes the service's; a part
 *   changed on both sides to different values is a conflict.
 *
 * Other types have no parts: `mergeParts` answers undefined and `mineOverTheirs` gives mine.
 */
type Key = (item: unknown) => string;

const nameKey: Key = (item) => String(item);

const zpuidKey: Key = (item) => {
  if (typeof item === 'object' && item !== null && 'zpuid' in item) {
    return String((item as { zpuid: unknown }).zpuid);
  }
  return String(item);
};

const itemKeys: Readonly<Record<string, Key>> = { multi_select: nameKey, multi_user: zpuidKey };

function items(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Theirs, without the items I removed from the base, with the items I added (in my order). */
function mergeItems(base: unknown, mine: unknown, theirs: unknown, key: Key): unknown[] {
  const inBase = new Set(items(base).map(key));
  const inMine = new Set(items(mine).map(key));
  const removed = new Set([...inBase].filter((k) => !inMine.has(k)));
  const merged = items(theirs).filter((item) => !removed.has(key(item)));
  const present = new Set(merged.map(key));
  for (const item of items(mine)) {
    const k = key(item);
    if (inBase.has(k) || present.has(k)) continue;
    merged.push(item);
    present.add(k);
  }
  return merged;
}

interface Currency {
  currency_code?: unknown;
  formatted_amount?: unknown;
  amount?: unknown;
}

function currencyOf(value: unknown): Currency | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Currency)
    : null;
}

const codeOf = (c: Currency) => String(c.currency_code ?? '');
const amountOf = (c: Currency) => String(c.amount);

/**
 * One part of three: mine where I changed it, else theirs; `clash` when both changed it to
 * different values.
 */
function mergePart(base: string, mine: string, theirs: string): 'mine' | 'theirs' | 'clash' {
  if (mine === base || mine === theirs) return 'theirs';
  if (theirs === base) return 'mine';
  return 'clash';
}

/**
 * The code from one value, the amount from another. formatted_amount is the service's rendering
 * ("CODE amount" at the field's precision): the amount's own, under the code kept; the service
 * renders it again when it answers.
 */
function currencyFrom(code: Currency, amount: Currency): Currency {
  const shown = amount.formatted_amount;
  const prefix = `${codeOf(amount)} `;
  return {
    currency_code: code.currency_code,
    ...(typeof shown === 'string' && shown.startsWith(prefix)
      ? { formatted_amount: `${codeOf(code)} ${shown.slice(prefix.length)}` }
      : {}),
    amount: amount.amount,
  };
}

/**
 * Currency part by part, or undefined when a part clashes (`force`: my part wins a clash, as
 * "keep mine" asks). A value empty on any side has no parts to keep: mine as it is.
 */
function mergeCurrency(base: unknown, mine: unknown, theirs: unknown, force: boolean): unknown {
  const [b, m, t] = [currencyOf(base), currencyOf(mine), currencyOf(theirs)];
  if (!b || !m || !t) return force ? mine : undefined;
  const code = mergePart(codeOf(b), codeOf(m), codeOf(t));
  const amount = mergePart(amountOf(b), amountOf(m), amountOf(t));
  if (!force && (code === 'clash' || amount === 'clash')) return undefined;
  return currencyFrom(code === 'theirs' ? t : m, amount === 'theirs' ? t : m);
}

/**
 * The value both changes leave, or undefined when they cannot both be kept (or the type has no
 * parts): then the field is a conflict for the user.
 */
export function mergeParts(type: string, base: unknown, mine: unknown, theirs: unknown): unknown {
  const key = itemKeys[type];
  if (key) return mergeItems(base, mine, theirs, key);
  if (type === 'currency') return mergeCurrency(base, mine, theirs, false);
  return undefined;
}

/**
 * What "keep mine" writes: the parts I changed over the service's value, the others as the
 * service has them; the whole of mine for a type without parts.
 */
export function mineOverTheirs(
  type: string,
  base: unknown,
  mine: unknown,
  theirs: unknown,
): unknown {
  const key = itemKeys[type];
  if (key) return mergeItems(base, mine, theirs, key);
  if (type === 'currency') return mergeCurrency(base, mine, theirs, true);
  return mine;
}
