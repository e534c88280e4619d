/**
 * A record's first PATCH held in flight, for tests of what a configuration change queued
 * meanwhile does to it (renameWhileInFlight, removeWhileInFlight): `inFlight` resolves once it is
 * held; `release()` lets it end as `outcome` says: answered, unanswered (the connection reset
 * before it went), or its answer lost (held after the service applied it, then cut).
 */
import type { outboxSession } from '../outbox/outboxSession';

export type Outcome = 'answered' | 'unanswered' | 'answer lost';

type Session = Awaited<ReturnType<typeof outboxSession>>;

export function holdFirstPatch(s: Session, record: string, outcome: Outcome) {
  const isPatch = (method: string, url: URL) =>
    method === 'PATCH' && url.pathname.endsWith(s.path(record));
  let patches = 0;
  let reached!: () => void;
  const inFlight = new Promise<void>((resolve) => (reached = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  s.setFault((method, url) =>
    outcome === 'answer lost' && isPatch(method, url) && patches === 0 ? 'lose-answer' : 'pass',
  );
  s.setGate(async (method, url, answered) => {
    if (!isPatch(method, url) || patches > 0) return;
    // Held after the service applied it when its answer is to be lost, else before it goes.
    if (answered !== (outcome === 'answer lost')) return;
    reached();
    await released;
    patches++;
    if (outcome === 'unanswered') {
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
    }
  });
  return { inFlight, release };
}
