import './records.css';
import { useEffect, useRef } from 'react';
import { FilterPanel } from '../filters/FilterPanel';
import { EmptyState } from '../../ui/EmptyState';
import { SECTIONS } from '../../app/sections';
import { AppliedFilter } from './AppliedFilter';
import { ColumnChooser } from './ColumnChooser';
import { RecordDetailPanel } from './RecordDetailPanel';
import { RecycleBin } from './RecycleBin';
import { useRecords } from './RecordsContext';
import { RecordsTable } from './RecordsTable';
import { selectedCount } from './rowSelection';
import { SearchBox } from './SearchBox';
import { EMPTY_DRAFT } from '../filters/filterDraft';
import type { RecordsModule } from '../../../../shared/ipc/areas/records';
import { BUILT_IN_WHY } from './builtInModules';
import { EmptyModule, EmptyPortal } from './EmptyModule';
import { ExportDialog } from './ExportDialog';
import { ImportDialog } from './ImportDialog';
import { InterruptedImports } from './InterruptedImports';
import { CopyRows } from './CopyRows';
import { BulkEditDialog } from './BulkEditDialog';

const count = new Intl.NumberFormat();

/** Is the key press meant for a text box (then `/` is a character, not a shortcut)? */
function typingInto(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}

function ListState() {
  const total = useRecords((s) => s.total);
  const listError = useRecords((s) => s.listError);
  const filter = useRecords((s) => s.filter);
  const setDraft = useRecords((s) => s.setDraft);
  const module = useRecords((s) => s.modules?.find((m) => m.id === s.moduleId));
  const portal = useRecords((s) => s.portals?.find((p) => p.id === s.portalId));
  const browsing = useRecords((s) => s.snapshot !== null);
  if (listError) {
    return (
      <div className="list-state" role="alert">
        <p className="field-error">{listError}</p>
        {filter !== undefined && (
          <button type="button" onClick={() => setDraft(EMPTY_DRAFT, 0)}>
            Clear the filter
          </button>
        )}
      </div>
    );
  }
  if (total === 0 && filter === undefined && !browsing && module && portal) {
    return <EmptyModule module={module} portal={portal} />;
  }
  if (total === 0) {
    return (
      <div className="list-state" role="status">
        {filter !== undefined ? (
          <>
            <p>No {module?.pluralName ?? 'records'} match this filter.</p>
            <button type="button" onClick={() => setDraft(EMPTY_DRAFT, 0)}>
              Clear the filter
            </button>
          </>
        ) : browsing ? (
          <p>This backup holds no {module?.pluralName ?? 'records'}.</p>
        ) : null}
      </div>
    );
  }
  return null;
}

/** A built-in module opened (a place remembered from before): what it is, not an empty list. */
function BuiltInModule({ module }: { module: RecordsModule }) {
  return (
    <div className="records-builtin" role="status" data-testid="builtin-module">
      <h3>{module.pluralName} is a built-in module</h3>
      <p>{BUILT_IN_WHY}</p>
      <p className="hint">Choose a custom module in the sidebar to see its records.</p>
    </div>
  );
}

/** The records workspace: one module's records as a table, with filters, search and details. */
export function RecordsView() {
  const portals = useRecords((s) => s.portals);
  const portalsError = useRecords((s) => s.portalsError);
  const load = useRecords((s) => s.load);
  const modules = useRecords((s) => s.modules);
  const portal = useRecords((s) => s.portals?.find((p) => p.id === s.portalId));
  const module = useRecords((s) => s.modules?.find((m) => m.id === s.moduleId));
  const columnsError = useRecords((s) => s.columnsError);
  const total = useRecords((s) => s.total);
  const listLoading = useRecords((s) => s.listLoading);
  const announcedTotal = useRecords((s) => s.announcedTotal);
  const filterOpen = useRecords((s) => s.filterOpen);
  const setFilterOpen = useRecords((s) => s.setFilterOpen);
  const criteria = useRecords((s) => s.draft.criteria.length);
  const selected = useRecords((s) => selectedCount(s.selection, s.total ?? 0));
  const selecting = useRecords((s) => s.selecting);
  const selectionNote = useRecords((s) => s.selectionNote);
  const detailOpen = useRecords((s) => s.detail !== null);
  const browsing = useRecords((s) => s.snapshot !== null);
  const search = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
      if (typingInto(event.target)) return;
      event.preventDefault();
      search.current?.focus();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  if (portalsError) {
    return (
      <div className="list-state" role="alert">
        <p className="field-error">{portalsError}</p>
        <button type="button" onClick={() => void load()}>
          Try again
        </button>
      </div>
    );
  }
  if (portals === null) {
    return (
      <p className="list-state" role="status" aria-busy="true">
        Reading the local mirror…
      </p>
    );
  }
  const empty = SECTIONS[0].empty;
  if (portals.length === 0) return <EmptyState section="records" {...empty} />;
  if (modules && modules.length === 0 && portal) return <EmptyPortal portal={portal} />;
  if (modules && modules.every((m) => m.builtIn)) {
    return (
      <EmptyState
        section="records"
        title="This portal has no custom modules"
        body={BUILT_IN_WHY}
        next="Create a custom module in the Configure section; its records are mirrored from the next sync."
      />
    );
  }
  // A built-in module keeps search and the record panel; it has no list, filters or columns.
  const builtIn = module?.builtIn ?? false;

  return (
    <div className={`records${detailOpen ? ' has-detail' : ''}`}>
      <div className="records__toolbar">
        <h2 className="records__title">
          {module?.pluralName ?? '…'}
          <span className="records__count" data-testid="records-total">
            {total === null ? '' : `${count.format(total)} records`}
          </span>
          {/* Told to screen readers for the lists the person asks for, not every sync refresh. */}
          <span
            className="visually-hidden"
            aria-live="polite"
            data-testid="records-total-announced"
          >
            {announcedTotal === null ? '' : `${count.format(announcedTotal)} records`}
          </span>
          {listLoading && total !== null && <span className="records__count">updating…</span>}
        </h2>
        <SearchBox ref={search} />
        {!builtIn && (
          <>
            <button
              type="button"
              aria-expanded={filterOpen}
              aria-controls="records-filter-panel"
              onClick={() => setFilterOpen(!filterOpen)}
            >
              Filter{criteria > 0 ? ` (${criteria})` : ''}
            </button>
            <ColumnChooser />
            <RecycleBin />
            {!browsing && <ExportDialog />}
            {!browsing && <ImportDialog />}
            <CopyRows />
            {!browsing && <BulkEditDialog />}
          </>
        )}
        {(selected > 1 || selecting) && (
          <span className="records__selected" role="status">
            {selecting ? 'Selecting…' : `${count.format(selected)} selected`}
          </span>
        )}
        {/* Why the last Shift+click or Shift+key selected nothing new (the table is its control). */}
        {selectionNote && (
          <span className="field-error records__selected" role="alert">
            {selectionNote}
          </span>
        )}
      </div>
      {columnsError && (
        <p className="field-error" role="alert">
          {columnsError}
        </p>
      )}
      {!builtIn && !browsing && <InterruptedImports />}
      {filterOpen && !builtIn && <FilterPanel />}
      {!builtIn && <AppliedFilter />}
      <div className="records__main">
        <div className="records__table">
          {module?.builtIn ? (
            <BuiltInModule module={module} />
          ) : (
            <>
              <RecordsTable label={module ? `${module.pluralName} records` : 'Records'} />
              <ListState />
            </>
          )}
        </div>
        <RecordDetailPanel />
      </div>
      <p className="records__keys hint">
        Arrows move and select · Shift+arrows extend · Ctrl+arrows move only · Space adds,
        Ctrl+Space toggles · Ctrl+A selects all · Shift/Ctrl+click selects · Enter opens · Ctrl+C
        copies · / searches · Esc closes
      </p>
    </div>
  );
}
