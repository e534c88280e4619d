import { explainFilter, parseFilter } from '@portaldesk/portal-api/filter';
import { EMPTY_DRAFT } from '../filters/filterDraft';
import { filterValueLabel } from '../filters/filterValueLabel';
import { useRecords } from './RecordsContext';
import { filterFieldsOf } from './recordsStore';

/** The filter the list shows, in words (names, as the builder says them), with Clear. */
export function AppliedFilter() {
  const filter = useRecords((s) => s.filter);
  const columns = useRecords((s) => s.columns);
  const setDraft = useRecords((s) => s.setDraft);
  if (filter === undefined || !columns) return null;
  const parsed = parseFilter(filter);
  const words = parsed.ok
    ? explainFilter(parsed.filter, filterFieldsOf(columns), filterValueLabel(columns))
    : filter;
  return (
    <p className="applied-filter" data-testid="applied-filter">
      <span className="applied-filter__label">Filter:</span> {words}{' '}
      <button type="button" className="link-button" onClick={() => setDraft(EMPTY_DRAFT, 0)}>
        Clear
      </button>
    </p>
  );
}
