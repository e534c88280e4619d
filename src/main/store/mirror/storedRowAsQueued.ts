/**
 * A server copy's custom values as queued option changes leave them (pure): a pick list's or
 * multi-select's renamed option by its new name, a removed one cleared (relabelled, the record
 * editor's own). The service relabels its records when the change is delivered; until then lists,
 * the record panel and export rows show what the editor shows. Laid before the pending edits,
 * which name options as the queue leaves them already; a record made here holds those names too
 * (its create was relabelled: configure/queuedRecordOptions.ts), so it is left as it is.
 */
import { relabelled } from '../../outbox/catalogOverlay';
import { parseJsonObject } from '@portaldesk/portal-api/json/parseJsonObject';
import type { StoredRecordRow } from './mergeRecordEdits';
import type { OptionRelabel } from './recordFilterSetup';

/** `custom` (values by API name) with `relabel` laid over; the same object when nothing changes. */
export function customAsQueued(
  custom: Record<string, unknown>,
  relabel: OptionRelabel,
): Record<string, unknown> {
  let shown: Record<string, unknown> | undefined;
  for (const [field, names] of relabel) {
    if (!Object.hasOwn(custom, field)) continue;
    const value = relabelled(custom[field], names);
    if (JSON.stringify(value) === JSON.stringify(custom[field])) continue;
    shown ??= { ...custom };
    // Defined, not assigned: an API name is the service's text, and `__proto__` may be one.
    Object.defineProperty(shown, field, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return shown ?? custom;
}

export function storedRowAsQueued<T extends StoredRecordRow>(row: T, relabel: OptionRelabel): T {
  if (relabel.size === 0 || row.local_only !== 0) return row;
  const custom = parseJsonObject(row.custom);
  const shown = customAsQueued(custom, relabel);
  return shown === custom ? row : { ...row, custom: JSON.stringify(shown) };
}
