/**
 * The order of a currency field in record lists (issue 19: sorting by amount alone mixed
 * currencies): by currency code (as stored, code point order), then by amount, empty values last
 * in both directions. A value is empty when it has no amount, as the filter language reads a
 * currency field (by its amount); a value with an amount but no code sorts as code ''.
 *
 * Both the service's lists (the emulator) and the mirror's write the order with these terms, so
 * they cannot differ. The first term is NULL exactly when the amount is, so `NULLS LAST` is
 * needed on it alone: within a code every amount is set, and an index on (code term, amount)
 * serves the order in both directions (SQLite cannot walk an index for a second NULLS LAST term).
 * Pure.
 */

/** The JSON members of a stored currency value the order reads. */
export type CurrencyMember = 'currency_code' | 'amount';

export interface CurrencyOrderTerms {
  /** The currency code, or NULL when the value is empty: sort it NULLS LAST (FIRST reversed). */
  code: string;
  /** The amount: sort it in the same direction, without a NULLS clause. */
  amount: string;
}

/**
 * The ORDER BY terms of a currency value, given how the caller's SQL reads one member of it
 * (e.g. `(m) => json_extract(r.custom, '$.cf_cost.${m}')`).
 */
export function currencyOrderTerms(member: (name: CurrencyMember) => string): CurrencyOrderTerms {
  const amount = member('amount');
  return {
    code: `CASE WHEN ${amount} IS NULL THEN NULL ELSE coalesce(${member('currency_code')}, '') END`,
    amount,
  };
}
