import './records.css';
import type { RecordsPortal } from '../../../../shared/ipc/areas/records';
import { BUILT_IN_WHY, splitModules } from './builtInModules';
import { useRecords } from './RecordsContext';

const count = new Intl.NumberFormat();

function byAccount(portals: readonly RecordsPortal[]): [string, RecordsPortal[]][] {
  const groups = new Map<string, RecordsPortal[]>();
  for (const portal of portals) {
    const key = `${portal.accountId} · ${portal.dc.toUpperCase()}`;
    groups.set(key, [...(groups.get(key) ?? []), portal]);
  }
  return [...groups];
}

/**
 * The records section's part of the sidebar: which portal, the portal's modules with their
 * record counts, and the records opened recently. The account is the sidebar's account block;
 * portals are grouped by account only when several accounts are signed in.
 */
export function RecordsNav() {
  const portals = useRecords((s) => s.portals);
  const portalId = useRecords((s) => s.portalId);
  const modules = useRecords((s) => s.modules);
  const modulesError = useRecords((s) => s.modulesError);
  const moduleId = useRecords((s) => s.moduleId);
  const recent = useRecords((s) => s.recent);
  const selectPortal = useRecords((s) => s.selectPortal);
  const selectModule = useRecords((s) => s.selectModule);
  const openRecord = useRecords((s) => s.openRecord);
  if (!portals || portals.length === 0) return null;
  const groups = byAccount(portals);
  const { custom, builtIn } = splitModules(modules ?? []);
  const option = (portal: RecordsPortal) => (
    <option key={portal.id} value={portal.id} title={`${portal.name} · ${portal.timeZone}`}>
      {portal.orgName ?? portal.name}
    </option>
  );

  return (
    <div className="records-nav">
      <label className="records-nav__label" htmlFor="records-portal">
        Portal
      </label>
      <select
        id="records-portal"
        value={portalId ?? ''}
        onChange={(event) => void selectPortal(event.target.value)}
      >
        {groups.length === 1
          ? portals.map(option)
          : groups.map(([account, list]) => (
              <optgroup key={account} label={account}>
                {list.map(option)}
              </optgroup>
            ))}
      </select>

      <h2 className="records-nav__heading" id="records-modules-heading">
        Modules
      </h2>
      {modulesError && (
        <p className="field-error" role="alert">
          {modulesError}
        </p>
      )}
      {modules && modules.length === 0 && (
        <p className="hint">No modules mirrored for this portal yet: run a sync.</p>
      )}
      {modules && modules.length > 0 && custom.length === 0 && (
        <p className="hint">This portal has no custom modules.</p>
      )}
      <ul aria-labelledby="records-modules-heading" className="records-nav__list">
        {custom.map((module) => (
          <li key={module.id}>
            <button
              type="button"
              className="sidebar__item records-nav__module"
              aria-current={module.id === moduleId ? 'page' : undefined}
              title={`${module.pluralName}: ${count.format(module.records)} records`}
              onClick={() => void selectModule(module.id)}
            >
              <span className="records-nav__name">{module.pluralName}</span>
              <span className="records-nav__count">{count.format(module.records)}</span>
            </button>
          </li>
        ))}
      </ul>
      {builtIn.length > 0 && (
        <details className="records-nav__builtin" data-testid="builtin-modules">
          <summary title="Built-in modules: their records are not mirrored">
            Built-in, not mirrored
          </summary>
          <p className="hint">{BUILT_IN_WHY}</p>
          <ul aria-label="Built-in modules" className="records-nav__list">
            {builtIn.map((module) => (
              <li key={module.id} className="records-nav__builtin-name" title={module.pluralName}>
                {module.pluralName}
              </li>
            ))}
          </ul>
        </details>
      )}

      {recent.length > 0 && (
        <>
          <h2 className="records-nav__heading" id="records-recent-heading">
            Recently viewed
          </h2>
          <ul aria-labelledby="records-recent-heading" className="records-nav__list">
            {recent.slice(0, 8).map((item) => (
              <li key={item.recordId}>
                <button
                  type="button"
                  className="sidebar__item records-nav__recent"
                  title={`${item.name} (${item.module})`}
                  onClick={() => void openRecord(item.recordId)}
                >
                  <span className="records-nav__name">{item.name}</span>
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
