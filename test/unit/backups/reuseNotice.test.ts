/**
 * The 24-hour reuse in words. Times are built with local-time constructors and printed with a
 * fixed (UTC) clock, so the sentences do not depend on the machine's zone; "today" and
 * "tomorrow" are the computer's calendar days.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BACKUP_REUSE_MS,
  localClock,
  nextBackupAllowedAt,
  reuseNotice,
  type FormatClock,
  type ReuseFacts,
} from '../../../src/main/backups/reuseNotice';

const format: FormatClock = (d) => d.toISOString().slice(11, 16);
const HOUR = 3_600_000;

/** Mid-January: no zone changes its clocks then, so 24 hours later is the next calendar day. */
const made = new Date(2026, 0, 14, 9, 12);
const next = new Date(made.getTime() + BACKUP_REUSE_MS);

const completed = (at: Date, requested: Date | null = null): ReuseFacts => ({
  reused: true,
  requestedTime: requested?.toISOString() ?? null,
  completedTime: at.toISOString(),
});

/** The local calendar date of `d`, as `yyyy-mm-dd`. */
const localDate = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

describe('nextBackupAllowedAt', () => {
  it('is 24 hours after completion', () => {
    expect(BACKUP_REUSE_MS).toBe(24 * HOUR);
    expect(nextBackupAllowedAt(completed(made))).toEqual(new Date(made.getTime() + 24 * HOUR));
    expect(
      nextBackupAllowedAt({
        reused: true,
        requestedTime: null,
        completedTime: '2026-11-26T09:12:03.000Z',
      }),
    ).toEqual(new Date('2026-11-27T09:12:03.000Z'));
  });

  it('prefers completion to the request', () => {
    const requested = new Date(made.getTime() - 2 * HOUR);
    expect(nextBackupAllowedAt(completed(made, requested))).toEqual(next);
  });

  it('uses the request while the backup is still generating', () => {
    expect(
      nextBackupAllowedAt({
        reused: true,
        requestedTime: '2026-11-26T09:12:03.000Z',
        completedTime: null,
      }),
    ).toEqual(new Date('2026-11-27T09:12:03.000Z'));
  });

  it('is null with no time, or a time that is not one', () => {
    expect(
      nextBackupAllowedAt({ reused: true, requestedTime: null, completedTime: null }),
    ).toBeNull();
    expect(
      nextBackupAllowedAt({ reused: true, requestedTime: null, completedTime: 'soon' }),
    ).toBeNull();
    expect(
      nextBackupAllowedAt({ reused: true, requestedTime: '', completedTime: null }),
    ).toBeNull();
  });

  it('does not depend on whether the backup was reused', () => {
    expect(nextBackupAllowedAt({ ...completed(made), reused: false })).toEqual(next);
  });

  it('is always exactly 24 hours after the time it uses', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('2000-01-01T00:00:00Z'),
          max: new Date('2100-01-01T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.boolean(),
        (at, stillGenerating) => {
          const facts: ReuseFacts = stillGenerating
            ? { reused: true, requestedTime: at.toISOString(), completedTime: null }
            : completed(at, new Date(at.getTime() - HOUR));
          expect(nextBackupAllowedAt(facts)!.getTime() - at.getTime()).toBe(BACKUP_REUSE_MS);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('reuseNotice', () => {
  it('says nothing for a new backup', () => {
    expect(reuseNotice({ ...completed(made), reused: false }, made, format)).toBeNull();
    expect(
      reuseNotice({ reused: false, requestedTime: null, completedTime: null }, made, format),
    ).toBeNull();
  });

  it('names the reused backup and when a new one can be made, tomorrow', () => {
    const now = new Date(2026, 0, 14, 10, 0);
    expect(reuseNotice(completed(made), now, format)).toBe(
      `The service returned the backup made at ${format(made)}; a new one can be made after ${format(next)} tomorrow.`,
    );
  });

  it('says today when the next one is allowed on the current calendar day', () => {
    const now = new Date(2026, 0, 15, 8, 0);
    expect(reuseNotice(completed(made), now, format)).toBe(
      `The service returned the backup made at ${format(made)}; a new one can be made after ${format(next)} today.`,
    );
  });

  it('counts calendar days, not 24-hour spans', () => {
    // Made at 00:30, seen at 23:50 the same day: the next is 40 minutes away, but tomorrow.
    const early = new Date(2026, 0, 14, 0, 30);
    expect(reuseNotice(completed(early), new Date(2026, 0, 14, 23, 50), format)).toMatch(
      / tomorrow\.$/,
    );
    // Made at 23:50, seen at 00:10 the next day: the next is almost a day away, but today.
    const late = new Date(2026, 0, 14, 23, 50);
    expect(reuseNotice(completed(late), new Date(2026, 0, 15, 0, 10), format)).toMatch(/ today\.$/);
  });

  it('gives the date, in the computer calendar, further away', () => {
    const later = reuseNotice(completed(made), new Date(2026, 0, 12, 12, 0), format);
    expect(later).toBe(
      `The service returned the backup made at ${format(made)}; a new one can be made after ${format(next)} on ${localDate(next)}.`,
    );
    expect(localDate(next)).toBe('2026-01-15');
    const past = reuseNotice(completed(made), new Date(2026, 0, 17, 12, 0), format);
    expect(past).toMatch(/ on 2026-01-15\.$/);
  });

  it('gives the local date even when the UTC date differs', () => {
    // Early morning and late evening: in most zones one of them is on another UTC day.
    for (const hour of [0, 1, 5, 19, 23]) {
      const at = new Date(2026, 0, 14, hour, 30);
      const allowed = new Date(at.getTime() + BACKUP_REUSE_MS);
      const notice = reuseNotice(completed(at), new Date(2026, 0, 10, 12, 0), format);
      expect(notice).toMatch(new RegExp(` on ${localDate(allowed)}\\.$`));
      expect(localDate(allowed)).toBe('2026-01-15');
    }
  });

  it('says "started" for a backup still generating', () => {
    const requested = new Date(2026, 0, 14, 8, 0);
    const allowed = new Date(requested.getTime() + BACKUP_REUSE_MS);
    const notice = reuseNotice(
      { reused: true, requestedTime: requested.toISOString(), completedTime: null },
      new Date(2026, 0, 14, 9, 0),
      format,
    );
    expect(notice).toBe(
      `The service returned the backup started at ${format(requested)}; a new one can be made after ${format(allowed)} tomorrow.`,
    );
  });

  it('says "made" and uses the completion when both times are known', () => {
    const requested = new Date(made.getTime() - 2 * HOUR);
    const notice = reuseNotice(completed(made, requested), new Date(2026, 0, 14, 10, 0), format);
    expect(notice).toContain(`backup made at ${format(made)};`);
    expect(notice).toContain(`after ${format(next)} tomorrow`);
    expect(notice).not.toContain('started');
  });

  it('falls back to a general sentence when no usable time was given', () => {
    const general =
      'The service returned a backup it made within the last 24 hours instead of a new one.';
    expect(
      reuseNotice({ reused: true, requestedTime: null, completedTime: null }, made, format),
    ).toBe(general);
    expect(
      reuseNotice({ reused: true, requestedTime: null, completedTime: 'garbage' }, made, format),
    ).toBe(general);
  });

  it('formats with the injected clock', () => {
    const calls: Date[] = [];
    const spy: FormatClock = (d) => {
      calls.push(d);
      return `<${d.getTime()}>`;
    };
    const notice = reuseNotice(completed(made), new Date(2026, 0, 14, 10, 0), spy);
    expect(calls.map((d) => d.getTime())).toEqual([made.getTime(), next.getTime()]);
    expect(notice).toContain(`made at <${made.getTime()}>`);
    expect(notice).toContain(`after <${next.getTime()}> tomorrow`);
  });
});

describe('localClock', () => {
  it('prints hours and minutes, 24-hour', () => {
    expect(localClock(new Date(2026, 0, 14, 9, 5))).toBe('09:05');
    expect(localClock(new Date(2026, 0, 14, 21, 45))).toBe('21:45');
  });
});
