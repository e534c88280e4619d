/**
 * The ledger's refusals (OutboxLedger and the modules it calls): each written for the user (what
 * happened, what was kept, what to do), and thrown before anything is written, so a refused call
 * changes nothing. The IPC handlers pass them on as they are.
 */
export class LedgerError extends Error {
  override name = 'LedgerError';
}

/** A change refused because its record is in the trash (the service refuses those changes). */
export class TrashedRecordError extends LedgerError {
  override name = 'TrashedRecordError';
}
