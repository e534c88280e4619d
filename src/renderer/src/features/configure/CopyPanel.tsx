import './copy.css';
import { useId, useRef, useState } from 'react';
import type { ConfigModules } from '../../../../shared/ipc/areas/configure';
import {
  CONFIGURATION_FILE_MAX,
  type CopyPlan,
  type CopySource,
} from '../../../../shared/ipc/areas/configCopy';
import { describeFailure } from '../../app/controlActions';
import { useShell } from '../../app/ShellContext';
import { useApi } from '../../bridge/ApiContext';
import { offerFile } from '../../ui/offerFile';
import { useConfigure } from './ConfigureContext';
import { ACTION_WORD, callsLine, countsLine, itemsByModule, queuedCount } from './copyPlanFormat';

/** Where an error shows: next to the control that caused it. */
type Place = 'plan' | 'export' | 'file' | 'apply';

/** Offers a file's text for saving (a download in the browser, a save in the desktop app). */
function PlanView({
  plan,
  onApply,
  applying,
  applyError,
  queued,
}: {
  plan: CopyPlan;
  onApply: () => void;
  applying: boolean;
  applyError: string | null;
  queued: number | null;
}) {
  const ids = useId();
  const [showUnchanged, setShowUnchanged] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const select = useShell((state) => state.select);
  const groups = itemsByModule(plan.items, showUnchanged);
  const count = queuedCount(plan.counts);
  return (
    <div className="copy-plan" aria-labelledby={`${ids}-title`} role="region">
      <h3 id={`${ids}-title`}>
        Plan: {plan.source} → {plan.targetPortal}
      </h3>
      <p>
        <strong>{countsLine(plan.counts)}.</strong> {callsLine(plan)}
      </p>
      {plan.calls.length > 0 && (
        <details className="copy-plan__calls">
          <summary>Calls by endpoint</summary>
          <ul>
            {plan.calls.map((entry) => (
              <li key={entry.endpoint}>
                <code>{entry.endpoint}</code>: {entry.calls}
              </li>
            ))}
          </ul>
        </details>
      )}
      <label className="copy-plan__toggle">
        <input
          type="checkbox"
          checked={showUnchanged}
          onChange={(event) => setShowUnchanged(event.target.checked)}
        />{' '}
        Show what stays the same ({plan.counts.alone})
      </label>
      {groups.length === 0 && (
        <p className="muted">
          {plan.counts.alone > 0
            ? `Everything is already the same in ${plan.targetPortal}.`
            : 'Nothing to copy.'}
        </p>
      )}
      {groups.map((group) => (
        <section key={group.module} className="copy-plan__module" aria-label={group.module}>
          <h4>{group.module}</h4>
          <ul className="copy-plan__items">
            {group.items.map((item) => (
              <li key={item.key} className={`copy-item copy-item--${item.action}`}>
                <span className="copy-item__action">{ACTION_WORD[item.action]}</span>
                <span className="copy-item__summary">{item.summary}</span>
                {item.changes.length > 0 && (
                  <ul className="copy-item__changes">
                    {item.changes.map((change) => (
                      <li key={change.setting}>
                        {change.setting}:{' '}
                        {change.from === '' ? (
                          change.to
                        ) : (
                          <>
                            <del>{change.from}</del> → <ins>{change.to}</ins>
                          </>
                        )}
                      </li>
                    ))}
                  </ul>
                )}
                {item.detail && <p className="copy-item__detail muted">{item.detail}</p>}
                {item.calls > 0 && (
                  <span className="copy-item__calls muted">
                    {item.calls} call{item.calls === 1 ? '' : 's'}
                  </span>
                )}
              </li>
            ))}
          </ul>
        </section>
      ))}
      {queued !== null ? (
        <p className="banner" role="status">
          <span>
            Queued {queued} change{queued === 1 ? '' : 's'} for {plan.targetPortal}. They show in
            its configuration at once and go when the Outbox sends them.
          </span>
          <button type="button" onClick={() => select('outbox')}>
            Open the Outbox
          </button>
        </p>
      ) : count > 0 ? (
        <div className="copy-plan__apply">
          {confirming ? (
            <>
              <span>
                Queue {count} change{count === 1 ? '' : 's'} for {plan.targetPortal}
                {plan.counts.blocked > 0
                  ? ` (${plan.counts.blocked} item${plan.counts.blocked === 1 ? '' : 's'} that cannot be copied stay out)`
                  : ''}
                ?
              </span>
              <button
                type="button"
                className="primary"
                disabled={applying}
                onClick={() => {
                  setConfirming(false);
                  onApply();
                }}
              >
                Queue them
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </>
          ) : (
            <button
              type="button"
              className="primary"
              disabled={applying}
              onClick={() => setConfirming(true)}
            >
              {applying ? 'Queuing…' : `Queue the plan (${count} change${count === 1 ? '' : 's'})`}
            </button>
          )}
          {applyError && (
            <p className="field-error" role="alert">
              {applyError}
            </p>
          )}
        </div>
      ) : null}
    </div>
  );
}

/**
 * Copying configuration as a reviewed plan: this portal's custom modules into another portal, or
 * kept as a JSON file (for version control) and planned from a file into this portal. The plan
 * says what will be created, changed or left alone, and the calls it costs; queuing it puts
 * ordinary configuration changes in the Outbox, all of them or none.
 */
export function CopyPanel({ modules }: { modules: ConfigModules }) {
  const api = useApi();
  const ids = useId();
  const portals = useConfigure((state) => state.portals) ?? [];
  const fileInput = useRef<HTMLInputElement>(null);
  const portalId = modules.portalId;
  const portalName = portals.find((portal) => portal.id === portalId)?.name ?? portalId;
  const copyable = modules.modules.filter(
    (module) => !module.builtIn && module.state !== 'trashed',
  );
  const others = portals.filter((portal) => portal.id !== portalId);
  const [chosen, setChosen] = useState<string[]>([]);
  const [targetId, setTargetId] = useState<string>(others[0]?.id ?? '');
  const [errors, setErrors] = useState<Partial<Record<Place, string>>>({});
  const [busy, setBusy] = useState<Place | null>(null);
  const [planned, setPlanned] = useState<{
    plan: CopyPlan;
    targetPortalId: string;
    source: CopySource;
  } | null>(null);
  const [queued, setQueued] = useState<number | null>(null);
  const [exported, setExported] = useState<string | null>(null);

  const run = async (place: Place, work: () => Promise<void>) => {
    setErrors({});
    setBusy(place);
    try {
      await work();
    } catch (failure) {
      setErrors({ [place]: describeFailure(failure) });
    } finally {
      setBusy(null);
    }
  };
  const plan = (targetPortalId: string, source: CopySource, place: Place) =>
    run(place, async () => {
      setQueued(null);
      setPlanned(null);
      const made = await api.configure.planCopy({ targetPortalId, source });
      setPlanned({ plan: made, targetPortalId, source });
    });
  const target = targetId && others.some((portal) => portal.id === targetId) ? targetId : '';

  return (
    <section className="card configure-copy" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Copy configuration</h2>
      <p className="muted">
        Copy modules with their layouts, sections, custom fields and options into another portal, or
        keep them as a file. Modules and fields are matched by API name; nothing the target has is
        deleted. Nothing changes until you queue a plan you have read.
      </p>
      <fieldset className="copy-modules">
        <legend>Custom modules of {portalName}</legend>
        {copyable.length === 0 ? (
          <p className="muted">This portal has no custom modules to copy.</p>
        ) : (
          copyable.map((module) => (
            <label key={module.id} className="copy-modules__choice">
              <input
                type="checkbox"
                checked={chosen.includes(module.id)}
                onChange={(event) =>
                  setChosen((current) =>
                    event.target.checked
                      ? [...current, module.id]
                      : current.filter((id) => id !== module.id),
                  )
                }
              />{' '}
              {module.pluralName}
              {module.apiName && <code className="muted"> {module.apiName}</code>}
            </label>
          ))
        )}
      </fieldset>
      <div className="copy-actions">
        <label htmlFor={`${ids}-target`}>Copy into</label>
        <select
          id={`${ids}-target`}
          value={target}
          onChange={(event) => setTargetId(event.target.value)}
          disabled={others.length === 0}
        >
          {others.length === 0 && <option value="">(no other portal here)</option>}
          {others.map((portal) => (
            <option key={portal.id} value={portal.id}>
              {portal.name}
            </option>
          ))}
        </select>
        <button
          type="button"
          disabled={chosen.length === 0 || target === '' || busy !== null}
          onClick={() => void plan(target, { kind: 'portal', portalId, moduleIds: chosen }, 'plan')}
        >
          {busy === 'plan' ? 'Making the plan…' : 'Make the plan'}
        </button>
        <button
          type="button"
          disabled={chosen.length === 0 || busy !== null}
          onClick={() =>
            void run('export', async () => {
              const file = await api.configure.exportConfiguration({
                portalId,
                moduleIds: chosen,
              });
              offerFile(file.fileName, file.text);
              setExported(
                `Saved ${file.fileName}: ${file.modules} module${file.modules === 1 ? '' : 's'}, ${file.layouts} layout${file.layouts === 1 ? '' : 's'}, ${file.fields} custom field${file.fields === 1 ? '' : 's'}.`,
              );
            })
          }
        >
          Export as a file
        </button>
        {chosen.length === 0 && copyable.length > 0 && (
          <span className="muted">Choose the modules to copy first.</span>
        )}
      </div>
      {errors.plan && (
        <p className="field-error" role="alert">
          {errors.plan}
        </p>
      )}
      {errors.export && (
        <p className="field-error" role="alert">
          {errors.export}
        </p>
      )}
      {exported && !errors.export && (
        <p className="muted" role="status">
          {exported}
        </p>
      )}
      <div className="copy-actions">
        <label htmlFor={`${ids}-file`}>Plan a configuration file into {portalName}</label>
        <input
          id={`${ids}-file`}
          ref={fileInput}
          type="file"
          accept=".json,application/json"
          disabled={busy !== null}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (!file) return;
            if (file.size > CONFIGURATION_FILE_MAX) {
              setErrors({
                file: `${file.name} is ${(file.size / 1_000_000).toFixed(1)} MB; a configuration file is at most ${CONFIGURATION_FILE_MAX / 1_000_000} MB. Nothing was planned.`,
              });
              return;
            }
            void run('file', async () => {
              const text = await file.text();
              setQueued(null);
              setPlanned(null);
              const source: CopySource = { kind: 'file', name: file.name, text };
              const made = await api.configure.planCopy({ targetPortalId: portalId, source });
              setPlanned({ plan: made, targetPortalId: portalId, source });
            });
          }}
        />
      </div>
      {errors.file && (
        <p className="field-error" role="alert">
          {errors.file}
        </p>
      )}
      {planned && (
        <PlanView
          plan={planned.plan}
          applying={busy === 'apply'}
          applyError={errors.apply ?? null}
          queued={queued}
          onApply={() =>
            void run('apply', async () => {
              const result = await api.configure.applyCopy({
                targetPortalId: planned.targetPortalId,
                source: planned.source,
                fingerprint: planned.plan.fingerprint,
              });
              setQueued(result.queued);
              setPlanned({ ...planned, plan: result.plan });
            })
          }
        />
      )}
    </section>
  );
}
