/** The import's refusals: written for the user (what happened, what was kept, what to do). */
export class RecordsImportError extends Error {}
