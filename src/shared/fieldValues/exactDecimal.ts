/**
 * Whether a number written as text keeps its value as a double (pure). A Decimal holds up to 17
 * digits (spec, "Custom field value types"), a double about 15: "0.12345678901234567" becomes
 * 0.12345678901234566, and sending that would change what was typed or what the service holds.
 * Used by the API client (numbers in replies) and by the editor's checks (numbers typed).
 */

/** A number as text: JSON's form, or as typed (a `+`, `.5`, `5.`). */
const NUMBER_PARTS = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * The decimal value a number's text stands for, as one canonical text: significant digits and
 * the point's place (1.10, 1.1 and 0.11e1 all give "11e1"); every zero gives "0"; null for text
 * that is not a number.
 */
export function decimalValue(text: string): string | null {
  const m = NUMBER_PARTS.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return null;
  const whole = m[2] ?? '';
  let digits = whole + (m[3] ?? '');
  let point = BigInt(whole.length) + BigInt(m[4] ?? '0');
  let lead = 0;
  while (lead < digits.length && digits[lead] === '0') lead++;
  digits = digits.slice(lead).replace(/0+$/, '');
  point -= BigInt(lead);
  if (digits === '') return '0';
  return `${m[1] === '-' ? '-' : ''}${digits}e${point}`;
}

/**
 * The double `text` would become, when its value differs from the text's (beyond 2^53, more
 * significant digits than a double keeps, 1e400, 1e-400); null when the double is exact, or when
 * `text` is not a number.
 */
export function inexactDouble(text: string): number | null {
  const value = decimalValue(text);
  if (value === null) return null;
  const double = Number(text);
  if (!Number.isFinite(double)) return double;
  return decimalValue(String(double)) === value ? null : double;
}
