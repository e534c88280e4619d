import { useEffect, useId, useState } from 'react';
import type { RequestResult } from '../../../../shared/ipc/contract';
import { describeFailure } from '../../app/controlActions';
import { useApi } from '../../bridge/ApiContext';

type Services = RequestResult<'configure.integrationServices'>;
type Modules = RequestResult<'configure.integrationModules'>;
type Fields = RequestResult<'configure.integrationFields'>;

/** One integrated module: its fields, read when it is opened. */
function IntegratedModule({
  portalId,
  serviceId,
  module,
}: {
  portalId: string;
  serviceId: string;
  module: Modules[number];
}) {
  const api = useApi();
  const [fields, setFields] = useState<Fields | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!open || fields !== null) return;
    let live = true;
    api.configure.integrationFields({ portalId, serviceId, moduleId: module.id }).then(
      (read) => live && setFields(read),
      (failure: unknown) => live && setError(describeFailure(failure)),
    );
    return () => {
      live = false;
    };
  }, [api, open, fields, portalId, serviceId, module.id]);
  return (
    <li>
      <button
        type="button"
        className="link-button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        {module.name} <code className="muted">{module.apiName}</code>
      </button>
      {open && error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {open && !error && fields === null && <p className="muted">Reading its fields…</p>}
      {open && fields && (
        <table className="integration-fields">
          <caption className="muted">
            {fields.length} field{fields.length === 1 ? '' : 's'} of {module.name}
          </caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">API name</th>
              <th scope="col">Type</th>
            </tr>
          </thead>
          <tbody>
            {fields.map((field) => (
              <tr key={field.id}>
                <td>{field.label}</td>
                <td>
                  <code>{field.apiName}</code>
                </td>
                <td>{field.type ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </li>
  );
}

/** One integrated service: its modules, read when it is opened. */
function IntegratedService({ portalId, service }: { portalId: string; service: Services[number] }) {
  const api = useApi();
  const [modules, setModules] = useState<Modules | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!open || modules !== null) return;
    let live = true;
    api.configure.integrationModules({ portalId, serviceId: service.id }).then(
      (read) => live && setModules(read),
      (failure: unknown) => live && setError(describeFailure(failure)),
    );
    return () => {
      live = false;
    };
  }, [api, open, modules, portalId, service.id]);
  return (
    <li className="integration-service">
      <button
        type="button"
        className="link-button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        <strong>{service.name}</strong>
      </button>{' '}
      <span className="muted">
        {service.type ?? 'service'} · {service.enabled ? 'enabled' : 'disabled'}
        {service.modules !== null ? ` · ${service.modules} modules` : ''}
      </span>
      {open && error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {open && !error && modules === null && <p className="muted">Reading its modules…</p>}
      {open && modules && (
        <ul className="integration-modules" aria-label={`Modules of ${service.name}`}>
          {modules.map((module) => (
            <IntegratedModule
              key={module.id}
              portalId={portalId}
              serviceId={service.id}
              module={module}
            />
          ))}
        </ul>
      )}
    </li>
  );
}

/**
 * The portal's integration fields, read-only: the services it is integrated with, their modules
 * and each module's fields, read from the service as they are opened (online only).
 */
export function IntegrationsPanel({ portalId }: { portalId: string }) {
  const api = useApi();
  const ids = useId();
  const [services, setServices] = useState<Services | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [asked, setAsked] = useState(false);
  useEffect(() => {
    if (!asked) return;
    let live = true;
    api.configure.integrationServices({ portalId }).then(
      (read) => live && setServices(read),
      (failure: unknown) => live && setError(describeFailure(failure)),
    );
    return () => {
      live = false;
    };
  }, [api, asked, portalId]);
  return (
    <section className="card configure-integrations" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Integration fields</h2>
      <p className="hint">
        The services this portal is integrated with, their modules and fields. Read from the service
        when asked (online only); nothing here is changed.
      </p>
      {!asked && (
        <button type="button" onClick={() => setAsked(true)}>
          Read the integrations
        </button>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {asked && !error && services === null && <p className="muted">Reading…</p>}
      {services && services.length === 0 && <p className="muted">No integrated services.</p>}
      {services && services.length > 0 && (
        <ul className="integration-services" aria-label="Integrated services">
          {services.map((service) => (
            <IntegratedService key={service.id} portalId={portalId} service={service} />
          ))}
        </ul>
      )}
    </section>
  );
}
