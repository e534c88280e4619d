import { useState } from 'react';
import type { PublisherView } from '../../../../shared/ipc/areas/router';
import { EventSchema } from './EventSchema';
import { useRouter } from './useRouter';

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
