/**
 * What a resumed download does with the server's answer, given `have` bytes already held:
 * append, restart, complete, or fail (and whether the link is gone).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resumePlan, type DownloadAnswer } from '../../../src/main/backups/resumePlan';

const answer = (
  status: number,
  contentRange: string | null = null,
  contentLength: string | null = null,
): DownloadAnswer => ({ status, contentRange, contentLength });

describe('resumePlan', () => {
  describe('200: the server sent the whole file', () => {
    it('restarts with the length it announced', () => {
      expect(resumePlan(500, answer(200, null, '1000'))).toEqual({ kind: 'restart', total: 1000 });
      expect(resumePlan(0, answer(200, null, '0'))).toEqual({ kind: 'restart', total: 0 });
    });

    it('restarts with an unknown total when the length is missing or not a number', () => {
      expect(resumePlan(500, answer(200))).toEqual({ kind: 'restart', total: null });
      for (const length of ['', 'abc', '-1', '1.5', ' 10', '10 ', '1e3', '0x10']) {
        expect(resumePlan(500, answer(200, null, length))).toEqual({
          kind: 'restart',
          total: null,
        });
      }
    });

    it('restarts even when a Content-Range came along', () => {
      expect(resumePlan(500, answer(200, 'bytes 500-999/1000', '1000'))).toEqual({
        kind: 'restart',
        total: 1000,
      });
    });
  });

  describe('206: part of the file', () => {
    it('appends when the part starts exactly where the file ends', () => {
      expect(resumePlan(500, answer(206, 'bytes 500-999/1000', '500'))).toEqual({
        kind: 'append',
        total: 1000,
      });
      expect(resumePlan(0, answer(206, 'bytes 0-0/1'))).toEqual({ kind: 'append', total: 1 });
    });

    it('fails when the part is of another version than the one If-Range named', () => {
      const part = { ...answer(206, 'bytes 500-999/1000', '500'), ifRange: '"v1"' };
      expect(resumePlan(500, { ...part, etag: '"v1"' })).toEqual({ kind: 'append', total: 1000 });
      // No ETag in the answer: nothing to tell them apart by.
      expect(resumePlan(500, { ...part, etag: null })).toEqual({ kind: 'append', total: 1000 });
      expect(resumePlan(500, { ...part, etag: '"v2"' })).toEqual({
        kind: 'fail',
        reason: 'the server sent the rest of another version of the file ("v2", not "v1")',
        linkGone: false,
      });
    });

    it('appends a part that stops before the end', () => {
      expect(resumePlan(500, answer(206, 'bytes 500-599/1000'))).toEqual({
        kind: 'append',
        total: 1000,
      });
    });

    it.each([
      ['before the end of the file', 'bytes 400-999/1000', 'bytes 400-999 of 1000'],
      ['after the end of the file', 'bytes 600-999/1000', 'bytes 600-999 of 1000'],
      ['from the start, short of the end', 'bytes 0-998/1000', 'bytes 0-998 of 1000'],
    ])('fails when the part starts %s', (_where, range, said) => {
      expect(resumePlan(500, answer(206, range))).toEqual({
        kind: 'fail',
        reason: `the server sent ${said} when 500 were held`,
        linkGone: false,
      });
    });

    it('starts over when the part is the whole file (a 206 as good as a 200)', () => {
      expect(resumePlan(500, answer(206, 'bytes 0-999/1000'))).toEqual({
        kind: 'restart',
        total: 1000,
      });
    });

    it('fails when the part ends at or past the total, or before its start', () => {
      for (const range of ['bytes 500-1000/1000', 'bytes 500-2000/1000', 'bytes 500-499/1000']) {
        const plan = resumePlan(500, answer(206, range));
        expect(plan).toMatchObject({ kind: 'fail', linkGone: false });
        expect(plan.kind === 'fail' && plan.reason).toMatch(/^the server sent bytes 500-\d+ of/);
      }
    });

    it.each([
      null,
      '',
      'bytes */1000',
      'bytes 500-999/*',
      'bytes 500-/1000',
      'bytes=500-999/1000',
      'items 500-999/1000',
      'bytes 500-999',
      ' bytes 500-999/1000',
      'bytes 500-999/1000 ',
      'bytes -500-999/1000',
      'bytes 500 - 999/1000',
      'Bytes 500-999/1000',
    ])('fails on the malformed or missing Content-Range %j', (range) => {
      expect(resumePlan(500, answer(206, range))).toEqual({
        kind: 'fail',
        reason: 'the server sent part of the file without saying which part',
        linkGone: false,
      });
    });

    it('appends exactly when the range starts at have and ends inside the total', () => {
      fc.assert(
        fc.property(
          fc.nat({ max: 1e9 }).chain((have) =>
            fc.tuple(
              fc.constant(have),
              // Mostly near `have`, so every comparison goes both ways.
              fc.oneof(
                fc.constant(have),
                fc.integer({ min: -2, max: 2 }).map((d) => Math.max(0, have + d)),
                fc.nat({ max: 1e9 }),
              ),
              fc.integer({ min: -2, max: 1e6 }),
              fc.integer({ min: -2, max: 1e6 }),
            ),
          ),
          ([have, start, length, beyond]) => {
            const end = Math.max(0, start + length);
            const total = Math.max(0, end + beyond);
            const plan = resumePlan(have, answer(206, `bytes ${start}-${end}/${total}`));
            const good = start === have && start <= end && end < total;
            const whole = start === 0 && end === total - 1 && have > 0;
            expect(plan.kind).toBe(good ? 'append' : whole ? 'restart' : 'fail');
            if (plan.kind === 'append') expect(plan.total).toBe(total);
            if (plan.kind === 'fail') expect(plan.linkGone).toBe(false);
          },
        ),
        { numRuns: 200 },
      );
    });
  });

  describe('416: nothing left to send', () => {
    it('is complete when the total is what is held', () => {
      expect(resumePlan(1000, answer(416, 'bytes */1000'))).toEqual({
        kind: 'complete',
        total: 1000,
      });
      expect(resumePlan(0, answer(416, 'bytes */0'))).toEqual({ kind: 'complete', total: 0 });
    });

    it('fails when the server holds fewer bytes than are held', () => {
      expect(resumePlan(1000, answer(416, 'bytes */900'))).toEqual({
        kind: 'fail',
        reason: 'the server holds 900 bytes, fewer than the 1000 already downloaded',
        linkGone: false,
      });
    });

    it('fails when the server holds more bytes than are held', () => {
      // Not complete: the file on the server is not the one held.
      expect(resumePlan(500, answer(416, 'bytes */1000'))).toEqual({
        kind: 'fail',
        reason: 'the server holds 1000 bytes but refused the rest after the 500 already downloaded',
        linkGone: false,
      });
    });

    it.each([null, '', 'bytes */', 'bytes */abc', 'bytes 0-1/1000', 'bytes */1000 '])(
      'fails with an unknown total for the Content-Range %j',
      (range) => {
        expect(resumePlan(1000, answer(416, range))).toEqual({
          kind: 'fail',
          reason:
            'the server refused the rest of the file after 1000 bytes without saying its size',
          linkGone: false,
        });
      },
    );
  });

  describe('other answers', () => {
    it.each([404, 410])('%i: the link is gone', (status) => {
      expect(resumePlan(500, answer(status))).toEqual({
        kind: 'fail',
        reason: 'the service no longer offers this download link',
        linkGone: true,
      });
    });

    it.each([401, 403])('%i: the link is gone (a signed link that expired)', (status) => {
      expect(resumePlan(500, answer(status))).toMatchObject({ kind: 'fail', linkGone: true });
    });

    it.each([408, 429, 500, 502, 503, 504])(
      '%i: fails for now (a server restarting, busy), keeping what is held',
      (status) => {
        expect(resumePlan(500, answer(status, 'bytes 500-999/1000', '500'))).toEqual({
          kind: 'fail',
          reason: `the server answered ${status}`,
          linkGone: false,
          transient: true,
        });
      },
    );

    it.each([302, 204, 0, 400, 501])('%i: fails, naming the status', (status) => {
      expect(resumePlan(500, answer(status, 'bytes 500-999/1000', '500'))).toEqual({
        kind: 'fail',
        reason: `the server answered ${status}`,
        linkGone: false,
      });
    });
  });
});
