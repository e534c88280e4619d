/**
 * Limits on a filter. The spec does not state any ("not shown"), so these are ours: generous for
 * any filter a person builds, small enough that parsing, checking and the generated SQL stay
 * bounded (SQLite's default expression depth is 1000).
 */

/** Criteria in one filter. */
export const MAX_CRITERIA = 100;

/**
 * Values in one criterion. The largest multi-valued field holds 500 users (spec: "Multi-user ...
 * max 500 users"), so an `is` over all of them still fits.
 */
export const MAX_VALUES_PER_CRITERION = 500;

/** Characters in a pattern. */
export const MAX_PATTERN_LENGTH = 2000;

/** Parentheses nested inside one another in a pattern. */
export const MAX_PATTERN_DEPTH = 32;
