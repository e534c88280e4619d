/**
 * Case-insensitive text (spec: "Text comparisons are case-insensitive").
 *
 * SQLite's lower(), upper(), LIKE and NOCASE fold ASCII only, so 'Ärger' would not match 'ärger'.
 * Instead both back ends fold with the same JavaScript function: the evaluator calls it directly,
 * and SQL calls it as an application-defined function the executor registers:
 *
 *   db.function(FOLD_SQL_FUNCTION, { deterministic: true }, foldSqlValue);
 *
 * The fold is NFC normalisation, then toUpperCase, then toLowerCase, then NFC again:
 * - NFC first makes precomposed and decomposed spellings ('Ä' vs 'A' + U+0308) equal;
 * - upper-then-lower gets close to Unicode full case folding: 'ß' -> 'SS' -> 'ss' so 'Straße'
 *   matches 'STRASSE', the ligature 'ﬁ' matches 'fi', and final sigma 'ς' -> 'Σ' -> 'σ' (except at
 *   the end of a word, where toLowerCase restores 'ς' on both sides alike);
 * - toUpperCase/toLowerCase without a locale are locale-independent (unlike toLocaleLowerCase,
 *   whose result depends on the ICU data and default locale), so the fold is deterministic.
 * Known limits: no Turkish dotless-i rules ('İ' folds to 'i' + U+0307, so 'İstanbul' contains
 * 'stanbul' but does not equal 'istanbul'), and a fold can change a string's length, which is fine
 * because both back ends compare folded strings with each other only.
 */

/** The name of the SQL function toSql calls; executors register foldSqlValue under it. */
export const FOLD_SQL_FUNCTION = 'pd_fold';

/** Folds text for case-insensitive comparison. */
export function foldText(s: string): string {
  return s.normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');
}

/**
 * The SQL function's implementation: folds text, and returns NULL for anything else (NULL,
 * numbers, blobs), so a non-text value never matches a text condition in SQL, as in evaluate.
 */
export function foldSqlValue(value: unknown): string | null {
  return typeof value === 'string' ? foldText(value) : null;
}
