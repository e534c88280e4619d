import { useId, useState } from 'react';
import type { ConfigModules } from '../../../../shared/ipc/areas/configure';
import { FieldsPanel } from './FieldsPanel';

/** The Fields panel of one module, chosen here among the portal's active modules. */
export function FieldsSection({ modules }: { modules: ConfigModules }) {
  const ids = useId();
  const active = modules.modules.filter((module) => module.state === 'active' && !module.builtIn);
  const [chosen, setChosen] = useState<string | null>(null);
  const moduleId =
    active.find((module) => module.id === chosen)?.id ??
    active.find((module) => !module.localOnly)?.id ??
    active[0]?.id ??
    null;
  return (
    <section className="configure-fields-section" aria-label="Fields of a module">
      <div className="configure-fields-section__picker">
        <label htmlFor={`${ids}-module`}>Fields of</label>
        <select
          id={`${ids}-module`}
          value={moduleId ?? ''}
          onChange={(event) => setChosen(event.target.value)}
        >
          {active.map((module) => (
            <option key={module.id} value={module.id}>
              {module.pluralName}
            </option>
          ))}
        </select>
      </div>
      {moduleId ? (
        <FieldsPanel key={moduleId} portalId={modules.portalId} moduleId={moduleId} />
      ) : (
        <p className="muted">No active custom module to show the fields of.</p>
      )}
    </section>
  );
}
