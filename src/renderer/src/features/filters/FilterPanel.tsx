import { filterFieldsOf } from '../records/recordsStore';
import { useRecords } from '../records/RecordsContext';
import { FilterBuilder } from './FilterBuilder';
import { checkDraft } from './filterDraft';
import { SavedFilters } from './SavedFilters';

/** The filter builder and saved filters of the module on screen. */
export function FilterPanel() {
  const columns = useRecords((s) => s.columns);
  const draft = useRecords((s) => s.draft);
  const setDraft = useRecords((s) => s.setDraft);
  if (!columns) return null;
  const fields = filterFieldsOf(columns);
  const valid = draft.criteria.length > 0 && checkDraft(draft, fields).ok;
  return (
    <div className="filter-panel" id="records-filter-panel">
      <FilterBuilder columns={columns} fields={fields} draft={draft} onChange={setDraft} />
      <SavedFilters canSave={valid} />
    </div>
  );
}
