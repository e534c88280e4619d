/**
 * What to do with a download's answer, given how much of the file is already in the temporary
 * file: append (a 206 that starts exactly where the file ends), start over (a 200: the server
 * ignored the range, or the file changed and If-Range sent it whole), finish (a 416 whose total is
 * what we hold: it was complete), or stop with a reason (404: the link is gone).
 */
export type ResumePlan =
  | { kind: 'append'; total: number }
  | { kind: 'restart'; total: number | null }
  | { kind: 'complete'; total: number }
  | { kind: 'fail'; reason: string; linkGone: boolean; transient?: true };

/**
 * Answers that say "not now" (a server restarting, overloaded, a gateway in between): what is
 * held is still good, and the next attempt resumes from it.
 */
const TRANSIENT = new Set([408, 429, 500, 502, 503, 504]);

export interface DownloadAnswer {
  status: number;
  contentRange: string | null;
  contentLength: string | null;
  /** The answer's ETag, and the one the request's If-Range named (null when none was sent). */
  etag?: string | null;
  ifRange?: string | null;
}

const RANGE = /^bytes (\d+)-(\d+)\/(\d+)$/;
const UNSATISFIED = /^bytes \*\/(\d+)$/;

function length(header: string | null): number | null {
  if (header === null || !/^\d+$/.test(header)) return null;
  return Number(header);
}

export function resumePlan(have: number, answer: DownloadAnswer): ResumePlan {
  if (answer.status === 200) return { kind: 'restart', total: length(answer.contentLength) };
  if (answer.status === 206) {
    const match = RANGE.exec(answer.contentRange ?? '');
    if (!match) {
      return {
        kind: 'fail',
        reason: 'the server sent part of the file without saying which part',
        linkGone: false,
      };
    }
    const [start, end, total] = [Number(match[1]), Number(match[2]), Number(match[3])];
    // The whole file as a 206: as good as a 200.
    if (start === 0 && end === total - 1 && have > 0) return { kind: 'restart', total };
    if (start !== have || end >= total || end < start) {
      return {
        kind: 'fail',
        reason: `the server sent bytes ${start}-${end} of ${total} when ${have} were held`,
        linkGone: false,
      };
    }
    // A server that ignores If-Range sends the asked bytes of whatever it holds now: a part of
    // another version would be appended to the bytes held of the first.
    if (answer.ifRange && answer.etag && answer.etag !== answer.ifRange) {
      return {
        kind: 'fail',
        reason: `the server sent the rest of another version of the file (${answer.etag.slice(0, 80)}, not ${answer.ifRange.slice(0, 80)})`,
        linkGone: false,
      };
    }
    return { kind: 'append', total };
  }
  if (answer.status === 416) {
    const total = Number(UNSATISFIED.exec(answer.contentRange ?? '')?.[1] ?? NaN);
    if (total === have) return { kind: 'complete', total };
    return {
      kind: 'fail',
      reason: Number.isNaN(total)
        ? `the server refused the rest of the file after ${have} bytes without saying its size`
        : total < have
          ? `the server holds ${total} bytes, fewer than the ${have} already downloaded`
          : `the server holds ${total} bytes but refused the rest after the ${have} already downloaded`,
      linkGone: false,
    };
  }
  // Gone, or a signed link that expired (401/403: the link is the only credential sent).
  if ([401, 403, 404, 410].includes(answer.status)) {
    return {
      kind: 'fail',
      reason: 'the service no longer offers this download link',
      linkGone: true,
    };
  }
  return {
    kind: 'fail',
    reason: `the server answered ${answer.status}`,
    linkGone: false,
    ...(TRANSIENT.has(answer.status) ? { transient: true as const } : {}),
  };
}
