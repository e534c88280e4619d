import { useState } from 'react';
import {
  HttpMethod,
  type FaultMode,
  TargetStatus,
  type TargetInput,
  type TargetView,
} from '../../../../shared/ipc/areas/router';
import { redactUrl } from '../../../../shared/routerSecrets/redactUrl';
import { DraftTable } from './DraftTable';
import { RequestBin } from './RequestBin';
import { formatPairs, parsePairs } from './routerFormat';
import { StatusSelect } from './StatusSelect';
import { useRouter } from './useRouter';

type Draft = {
  id?: string;
  name: string;
  kind: TargetView['kind'];
  url: string;
  method: TargetView['method'];
  headers: string;
  query: string;
  rateLimitPerSecond: number;
  timeoutMs: number;
  faultMode: FaultMode;
  failureRate: number;
  retryAfterSeconds: number;
};

const emptyDraft = (): Draft => ({
  name: '',
  kind: 'webhook',
  url: 'https://',
  method: 'POST',
  headers: '',
  query: '',
  rateLimitPerSecond: 300,
  timeoutMs: 10_000,
  faultMode: 'flaky',
  failureRate: 0.5,
  retryAfterSeconds: 30,
});

const toDraft = (t: TargetView): Draft => ({
  ...emptyDraft(),
  id: t.id,
  name: t.name,
  kind: t.kind,
  url: t.url ?? '',
  method: t.method,
  headers: formatPairs(t.headers),
  query: formatPairs(t.query),
  rateLimitPerSecond: t.rateLimitPerSecond,
  timeoutMs: t.timeoutMs,
  faultMode: t.fault?.mode ?? 'flaky',
  failureRate: t.fault?.failureRate ?? 0.5,
  retryAfterSeconds: t.fault?.retryAfterSeconds ?? 30,
});

export function TargetsPanel() {
  const targets = useRouter((state) => state.overview?.targets ?? []);
  const run = useRouter((state) => state.run);
  // The request bin shown below the list: its entries need the width of the panel.
  const [binId, setBinId] = useState<string | null>(null);
  const bin = targets.find((t) => t.id === binId && t.kind === 'request_bin');

  const save = (draft: Draft) => {
    const input: TargetInput = {
      ...(draft.id ? { id: draft.id } : {}),
      name: draft.name,
      kind: draft.kind,
      url: draft.kind === 'webhook' ? draft.url : null,
      method: draft.method,
      headers: parsePairs(draft.headers),
      query: parsePairs(draft.query),
      rateLimitPerSecond: draft.rateLimitPerSecond,
      timeoutMs: draft.timeoutMs,
      fault:
        draft.kind === 'fault'
          ? {
              mode: draft.faultMode,
              failureRate: draft.failureRate,
              retryAfterSeconds: draft.retryAfterSeconds,
            }
          : null,
    };
    return run((api) => api.router.saveTarget(input));
  };

  return (
    <>
      <DraftTable
        item="Target"
        columns={['Kind', 'Status', 'Where', 'Rate / timeout']}
        empty="No targets yet: New target adds a webhook, a request bin or a fault simulator."
        rows={targets}
        cells={(t) => (
          <>
            <td>{t.kind === 'fault' ? `fault: ${t.fault?.mode}` : t.kind}</td>
            <td>
              <StatusSelect
                name={t.name}
                value={t.status}
                statuses={TargetStatus.options}
                onChange={(status) =>
                  void run((api) => api.router.setTargetStatus({ id: t.id, status }))
                }
              />
            </td>
            <td className="mono">
              {t.kind === 'webhook' ? (
                // A webhook address may be its own credential (Slack's, Discord's): the list, in
                // every screenshot, shows it without; the form shows it whole to be edited.
                `${t.method} ${t.url === null ? '' : redactUrl(t.url)}`
              ) : t.kind === 'request_bin' ? (
                <button
                  type="button"
                  aria-expanded={binId === t.id}
                  onClick={() => setBinId(binId === t.id ? null : t.id)}
                >
                  {binId === t.id ? 'Hide received' : 'Show received'}
                </button>
              ) : (
                '—'
              )}
            </td>
            <td>
              {t.rateLimitPerSecond}/s · {t.timeoutMs / 1000} s
            </td>
          </>
        )}
        newDraft={emptyDraft}
        toDraft={toDraft}
        onSave={save}
        form={(draft, setDraft) => (
          <>
            <label>
              Kind
              <select
                value={draft.kind}
                onChange={(e) => setDraft({ ...draft, kind: e.target.value as Draft['kind'] })}
              >
                <option value="webhook">webhook</option>
                <option value="request_bin">request bin (records what it receives)</option>
                <option value="fault">fault target</option>
              </select>
            </label>
            {draft.kind === 'webhook' && (
              <>
                <label>
                  URL{' '}
                  <input
                    value={draft.url}
                    onChange={(e) => setDraft({ ...draft, url: e.target.value })}
                  />
                </label>
                <label>
                  Method
                  <select
                    value={draft.method}
                    onChange={(e) =>
                      setDraft({ ...draft, method: e.target.value as Draft['method'] })
                    }
                  >
                    {HttpMethod.options.map((m) => (
                      <option key={m}>{m}</option>
                    ))}
                  </select>
                </label>
                <label>
                  Headers (Name: value, one a line; values may use {'{{path.in.data}}'})
                  <textarea
                    className="mono"
                    rows={3}
                    value={draft.headers}
                    onChange={(e) => setDraft({ ...draft, headers: e.target.value })}
                  />
                </label>
                <label>
                  Query parameters (name: value)
                  <textarea
                    className="mono"
                    rows={2}
                    value={draft.query}
                    onChange={(e) => setDraft({ ...draft, query: e.target.value })}
                  />
                </label>
              </>
            )}
            {draft.kind === 'fault' && (
              <>
                <label>
                  Fault
                  <select
                    value={draft.faultMode}
                    onChange={(e) => setDraft({ ...draft, faultMode: e.target.value as FaultMode })}
                  >
                    <option value="always_500">always 500</option>
                    <option value="timeout">never answers (timeout)</option>
                    <option value="rate_limited">429 with Retry-After</option>
                    <option value="gone">410 Gone</option>
                    <option value="flaky">flaky</option>
                  </select>
                </label>
                {draft.faultMode === 'flaky' && (
                  <label>
                    Failure rate (0–1){' '}
                    <input
                      type="number"
                      step="0.05"
                      min={0}
                      max={1}
                      value={draft.failureRate}
                      onChange={(e) => setDraft({ ...draft, failureRate: Number(e.target.value) })}
                    />
                  </label>
                )}
                {draft.faultMode === 'rate_limited' && (
                  <label>
                    Retry-After (s){' '}
                    <input
                      type="number"
                      min={0}
                      value={draft.retryAfterSeconds}
                      onChange={(e) =>
                        setDraft({ ...draft, retryAfterSeconds: Number(e.target.value) })
                      }
                    />
                  </label>
                )}
              </>
            )}
            <label>
              Rate limit (calls/s, 1–300){' '}
              <input
                type="number"
                min={1}
                max={300}
                value={draft.rateLimitPerSecond}
                onChange={(e) => setDraft({ ...draft, rateLimitPerSecond: Number(e.target.value) })}
              />
            </label>
            <label>
              Timeout (ms){' '}
              <input
                type="number"
                min={1000}
                max={30000}
                value={draft.timeoutMs}
                onChange={(e) => setDraft({ ...draft, timeoutMs: Number(e.target.value) })}
              />
            </label>
          </>
        )}
      />
      {bin && <RequestBin key={bin.id} target={bin} onClose={() => setBinId(null)} />}
    </>
  );
}
