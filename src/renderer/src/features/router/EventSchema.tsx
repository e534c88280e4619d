import { useEffect, useMemo, useState } from 'react';
import {
  MAX_SCHEMA_KEYS,
  type EventConfigView,
  type SchemaVersionView,
} from '../../../../shared/ipc/areas/router';
import { sampleKeyPaths } from '../../../../shared/routerSchema/sampleKeyPaths';
import { parseJsonInput } from './routerFormat';
import { useRouter } from './useRouter';

/** Seconds left until a capture URL expires, ticking once a second. */
function Countdown({ expiresAt, nowMs }: { expiresAt: number; nowMs: number }) {
  const [elapsed, setElapsed] = useState(0);
  useEffect(() => {
    const started = Date.now();
    const timer = setInterval(() => setElapsed(Date.now() - started), 1000);
    return () => clearInterval(timer);
  }, []);
  // Counted in real seconds from the engine's answer (its clock may run faster than ours).
  const left = Math.max(0, Math.round((expiresAt - nowMs - elapsed) / 1000));
  return (
    <span data-testid="router-capture-countdown">
      {left > 0
        ? `valid for ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`
        : 'expired'}
    </span>
  );
}

/** How deep a dot-separated path is: its indentation in a list of keys. */
const depthOf = (path: string) => path.split('.').length - 1;

/**
 * The keys of the sample typed in, each with a "required" tick (issue 19): what a schema
 * generated from it will require. Nothing is ticked unless the saved schema requires it.
 */
function SampleKeys({
  sample,
  ticked,
  onTick,
}: {
  sample: string;
  ticked: ReadonlySet<string>;
  onTick: (path: string, required: boolean) => void;
}) {
  const keys = useMemo(() => {
    const parsed = parseJsonInput(sample);
    return 'value' in parsed ? sampleKeyPaths(parsed.value) : null;
  }, [sample]);
  return (
    <fieldset className="router-keys">
      <legend>Required keys of the sample</legend>
      <p className="muted">
        A ticked key must be in every event; the others may be left out. Generating or merging saves
        this choice.
      </p>
      {!keys || keys.paths.length === 0 ? (
        <p className="muted">The keys appear here once the sample is a JSON object with keys.</p>
      ) : (
        <ul className="router-keys__list">
          {keys.paths.map((path) => (
            <li key={path} style={{ paddingLeft: `${depthOf(path) * 16}px` }}>
              <label>
                <input
                  type="checkbox"
                  checked={ticked.has(path)}
                  onChange={(e) => onTick(path, e.target.checked)}
                />{' '}
                <code className="mono">{path}</code>
              </label>
            </li>
          ))}
        </ul>
      )}
      {keys && keys.unnamed > 0 && (
        <p className="muted">
          {keys.unnamed === 1 ? '1 key has a name' : `${keys.unnamed} keys have names`} no path can
          write (empty, with a dot, or __proto__): such keys stay optional.
        </p>
      )}
      {keys?.truncated && (
        <p className="muted">
          Only the first {MAX_SCHEMA_KEYS} keys are listed: a schema holds at most that many.
        </p>
      )}
    </fieldset>
  );
}

/** The saved schema's keys with their types, each key's required-ness changed in place. */
function SchemaKeys({
  event,
  busy,
  onChoose,
}: {
  event: EventConfigView;
  busy: string | null;
  onChoose: (path: string, required: boolean) => void;
}) {
  if (event.paths.length === 0) return null;
  return (
    <table className="data-table router-keys__table">
      <caption className="muted">
        Keys of schema version {event.schemaVersion}: a required key missing from an event is
        reported as a schema error.
      </caption>
      <thead>
        <tr>
          <th>Key</th>
          <th>Type</th>
          <th>Required</th>
        </tr>
      </thead>
      <tbody>
        {event.paths.map((key) => (
          <tr key={key.path}>
            <td className="mono" style={{ paddingLeft: `${8 + depthOf(key.path) * 16}px` }}>
              {key.path}
            </td>
            <td className="muted">
              {key.jsonType}
              {key.format ? ` (${key.format})` : ''}
            </td>
            <td>
              <input
                type="checkbox"
                aria-label={`${key.path} required`}
                checked={key.required}
                disabled={busy !== null}
                onChange={(e) => onChoose(key.path, e.target.checked)}
              />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What the saved schema requires, as a set of paths, and a key that changes when it does. */
function requiredOf(event: EventConfigView): { paths: Set<string>; key: string } {
  const paths = event.paths.filter((p) => p.required).map((p) => p.path);
  return { paths: new Set(paths), key: `${event.schemaVersion}\n${paths.join('\n')}` };
}

/** One event's schema: its sample and the keys it requires, the saved versions, captures, keys. */
export function EventSchema({ event }: { event: EventConfigView }) {
  const run = useRouter((state) => state.run);
  const [versions, setVersions] = useState<SchemaVersionView[] | null>(null);
  const [sample, setSample] = useState(() => JSON.stringify(event.sample ?? {}, null, 2));
  const [result, setResult] = useState<string | null>(null);
  const [capture, setCapture] = useState<{ url: string; expiresAt: number; nowMs: number } | null>(
    null,
  );
  const [keyPath, setKeyPath] = useState('');
  const [keyType, setKeyType] = useState('string');
  // The ticks start as the saved schema's choice, and follow it when it changes.
  const saved = requiredOf(event);
  const [ticked, setTicked] = useState<{ from: string; paths: Set<string> }>(() => ({
    from: saved.key,
    paths: saved.paths,
  }));
  if (ticked.from !== saved.key) setTicked({ from: saved.key, paths: saved.paths });
  const [busy, setBusy] = useState<string | null>(null);

  const loadVersions = () =>
    void run((api) => api.router.schemaVersions({ eventConfigId: event.id })).then(
      (v) => v && setVersions(v),
    );
  useEffect(loadVersions, [event.id, event.schemaVersion]); // eslint-disable-line react-hooks/exhaustive-deps

  const withSample = (action: (value: unknown) => Promise<void>) => {
    const parsed = parseJsonInput(sample);
    if ('error' in parsed) setResult(parsed.error);
    else void action(parsed.value);
  };
  /** The sample becomes the schema (a new version), or is merged into the current one. */
  const setSchemaSample = (merge: boolean) =>
    withSample(async (value) => {
      // Only keys of this sample: a tick left from an earlier sample is not the user's choice now.
      const required = sampleKeyPaths(value).paths.filter((path) => ticked.paths.has(path));
      const version = await run((api) =>
        api.router.setSample({ eventConfigId: event.id, sample: value, merge, required }),
      );
      if (!version) return;
      const what = required.length === 0 ? 'no key required' : `required: ${required.join(', ')}`;
      setResult(
        merge
          ? `Sample merged: schema version ${version.version} (${what}).`
          : `Schema version ${version.version} generated from the sample (${what}).`,
      );
    });
  const chooseRequired = (path: string, required: boolean) => {
    setBusy(path);
    void run((api) =>
      api.router.editSchemaKeys({ eventConfigId: event.id, require: [{ path, required }] }),
    ).then((version) => {
      setBusy(null);
      if (version)
        setResult(
          `${path} is ${required ? 'required' : 'optional'} from schema version ${version.version}.`,
        );
    });
  };

  return (
    <div className="router-schema">
      <div className="router-schema__cols">
        <div className="router-schema__col">
          <label>
            Sample data
            <textarea
              aria-label={`Sample for ${event.apiName}`}
              value={sample}
              onChange={(e) => setSample(e.target.value)}
              rows={8}
              className="mono"
            />
          </label>
          <SampleKeys
            sample={sample}
            ticked={ticked.paths}
            onTick={(path, on) => {
              const paths = new Set(ticked.paths);
              if (on) paths.add(path);
              else paths.delete(path);
              setTicked({ from: ticked.from, paths });
            }}
          />
        </div>
        <div className="router-schema__col">
          {event.schemaVersion === null && (
            <p className="muted">No schema yet: generate one from the sample, or capture one.</p>
          )}
          <SchemaKeys event={event} busy={busy} onChoose={chooseRequired} />
          {versions?.[0] && (
            <details>
              <summary>Schema version {versions[0].version} as JSON</summary>
              <pre className="router-pre" data-testid="router-schema">
                {JSON.stringify(versions[0].schema, null, 2)}
              </pre>
            </details>
          )}
        </div>
      </div>
      <div className="actions">
        <button
          type="button"
          onClick={() =>
            withSample(async (value) => {
              const check = await run((api) =>
                api.router.validateSample({ eventConfigId: event.id, sample: value }),
              );
              if (check)
                setResult(
                  check.valid
                    ? `Valid against version ${check.version ?? '—'}.`
                    : `Invalid: ${check.errors.join('; ')}`,
                );
            })
          }
        >
          Validate sample
        </button>
        <button type="button" onClick={() => setSchemaSample(false)}>
          Generate schema from sample
        </button>
        <button type="button" onClick={() => setSchemaSample(true)}>
          Merge sample
        </button>
        <button
          type="button"
          onClick={() =>
            void run((api) => api.router.startCapture({ eventConfigId: event.id })).then(
              (c) => c && setCapture(c),
            )
          }
        >
          Start capture
        </button>
        <button
          type="button"
          onClick={() =>
            void run((api) => api.router.sendTestEvent({ eventConfigId: event.id })).then(
              (r) => r && setResult(`Test event ${r.id} sent.`),
            )
          }
        >
          Send test event from sample
        </button>
      </div>
      {capture && (
        <p className="router-capture">
          POST JSON to <code className="mono">{capture.url}</code> —{' '}
          <Countdown expiresAt={capture.expiresAt} nowMs={capture.nowMs} />
        </p>
      )}
      <div className="actions">
        <input
          aria-label="Key path"
          placeholder="key path, e.g. customer.email"
          value={keyPath}
          onChange={(e) => setKeyPath(e.target.value)}
        />
        <select aria-label="Key type" value={keyType} onChange={(e) => setKeyType(e.target.value)}>
          {['string', 'number', 'integer', 'boolean', 'object', 'array'].map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
        <button
          type="button"
          disabled={!keyPath}
          onClick={() =>
            void run((api) =>
              api.router.editSchemaKeys({
                eventConfigId: event.id,
                add: [{ path: keyPath, type: keyType as 'string', required: false }],
              }),
            )
          }
        >
          Add key
        </button>
        <button
          type="button"
          disabled={!keyPath}
          onClick={() =>
            void run((api) =>
              api.router.editSchemaKeys({ eventConfigId: event.id, remove: [keyPath] }),
            )
          }
        >
          Remove key
        </button>
      </div>
      {result && <p role="status">{result}</p>}
    </div>
  );
}
