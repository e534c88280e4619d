import { useEffect, useState } from 'react';
import type {
  EventConfigView,
  PublisherView,
  SchemaVersionView,
} from '../../../../shared/ipc/areas/router';
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

function EventSchema({ event }: { event: EventConfigView }) {
  const run = useRouter((state) => state.run);
  const [versions, setVersions] = useState<SchemaVersionView[] | null>(null);
  const [sample, setSample] = useState(() => JSON.stringify(event.sample ?? {}, null, 2));
  const [result, setResult] = useState<string | null>(null);
  const [capture, setCapture] = useState<{ url: string; expiresAt: number; nowMs: number } | null>(
    null,
  );
  const [keyPath, setKeyPath] = useState('');
  const [keyType, setKeyType] = useState('string');

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
      const version = await run((api) =>
        api.router.setSample({ eventConfigId: event.id, sample: value, merge }),
      );
      if (!version) return;
      setResult(
        merge
          ? `Sample merged: schema version ${version.version}.`
          : `Schema version ${version.version} generated from the sample.`,
      );
    });

  return (
    <div className="router-schema">
      <div className="router-schema__cols">
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
        <div>
          <p className="muted">Schema version {event.schemaVersion ?? '—'}</p>
          <pre className="router-pre" data-testid="router-schema">
            {versions?.[0]
              ? JSON.stringify(versions[0].schema, null, 2)
              : 'No schema yet: add a sample or capture one.'}
          </pre>
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

function PublisherCard({ publisher }: { publisher: PublisherView }) {
  const run = useRouter((state) => state.run);
  const setNotice = useRouter((state) => state.setNotice);
  const ingressUrl = useRouter((state) => state.overview?.ingressUrl ?? null);
  const [open, setOpen] = useState<string | null>(null);
  const [apiName, setApiName] = useState('');
  return (
    <section className="card router-card" aria-label={publisher.name}>
      <header className="router-card__head">
        <h3>{publisher.name}</h3>
        <span className="muted">
          {publisher.kind} · {publisher.service} · id {publisher.id}
        </span>
        <label>
          <input
            type="checkbox"
            checked={publisher.status === 'active'}
            onChange={(e) =>
              void run((api) =>
                api.router.setPublisherStatus({
                  id: publisher.id,
                  status: e.target.checked ? 'active' : 'inactive',
                }),
              )
            }
          />{' '}
          active
        </label>
        {publisher.kind === 'custom' && (
          <button
            type="button"
            onClick={() =>
              void run((api) => api.router.rotateApiKey({ publisherId: publisher.id })).then(
                (r) =>
                  r &&
                  setNotice({
                    message: `New API key for ${publisher.name} (shown once; only its hash is kept):`,
                    secret: r.apiKey,
                  }),
              )
            }
          >
            New API key
          </button>
        )}
      </header>
      {publisher.kind === 'custom' && ingressUrl && (
        <p className="muted mono">
          POST {ingressUrl}/publishers/{publisher.id}/events/&#123;event_api_name&#125; with
          X-Api-Key (…{publisher.apiKeyHint})
        </p>
      )}
      <ul className="router-events">
        {publisher.events.map((event) => (
          <li key={event.id}>
            <button
              type="button"
              className="link-button"
              aria-expanded={open === event.id}
              onClick={() => setOpen(open === event.id ? null : event.id)}
            >
              {event.apiName}
            </button>{' '}
            <span className="muted">
              schema v{event.schemaVersion ?? '—'} · {event.paths.length} keys
            </span>
            {open === event.id && <EventSchema event={event} />}
          </li>
        ))}
      </ul>
      {publisher.kind === 'custom' && (
        <form
          className="actions"
          onSubmit={(e) => {
            e.preventDefault();
            void run((api) => api.router.createEvent({ publisherId: publisher.id, apiName })).then(
              (r) => r && setApiName(''),
            );
          }}
        >
          <input
            aria-label="New event API name"
            placeholder="event API name, e.g. order_created"
            value={apiName}
            onChange={(e) => setApiName(e.target.value)}
          />
          <button type="submit" disabled={!apiName}>
            Add event
          </button>
        </form>
      )}
    </section>
  );
}

export function PublishersPanel() {
  const overview = useRouter((state) => state.overview);
  const run = useRouter((state) => state.run);
  const setNotice = useRouter((state) => state.setNotice);
  const [name, setName] = useState('');
  return (
    <div className="router-panel">
      <form
        className="actions"
        onSubmit={(e) => {
          e.preventDefault();
          void run((api) => api.router.createPublisher({ name })).then((result) => {
            if (!result) return;
            setName('');
            setNotice({
              message: `API key for ${result.publisher.name} (shown once; only its hash is kept):`,
              secret: result.apiKey,
            });
          });
        }}
      >
        <input
          aria-label="New publisher name"
          placeholder="custom publisher name"
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <button type="submit" disabled={!name}>
          Add custom publisher
        </button>
      </form>
      {overview?.publishers.map((publisher) => (
        <PublisherCard key={publisher.id} publisher={publisher} />
      ))}
    </div>
  );
}
