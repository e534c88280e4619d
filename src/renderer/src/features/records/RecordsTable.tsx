import { useVirtualizer } from '@tanstack/react-virtual';
import {
  memo,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
} from 'react';
import type { RecordRow, RecordsField } from '../../../../shared/ipc/areas/records';
import { currenciesShown, headerTitle } from './columnLayout';
import { fieldValue, type ValueContext } from '../../../../shared/recordValues/describeValue';
import { FieldValue } from './FieldValue';
import { useRecords, useRecordsStore } from './RecordsContext';
import { isSelected } from './rowSelection';
import { copyToClipboard } from './copyToClipboard';

/** CSS pixels per row (also in records.css). 1,000,000 rows stay under Chromium's ~33.5M px limit. */
export const ROW_HEIGHT = 30;
/** Rows rendered beyond the screen on each side: a wheel flick's worth, few enough for a fast scroll. */
const OVERSCAN = 5;
/** Pixels a column grows or shrinks per arrow key on its resize handle. */
const RESIZE_STEP = 16;
/** The detail panel follows the keyboard focus after this pause (no read per key held down). */
const FOLLOW_FOCUS_MS = 120;

interface RowProps {
  index: number;
  row: RecordRow | undefined;
  columns: readonly RecordsField[];
  widths: Record<string, number>;
  selected: boolean;
  focused: boolean;
  start: number;
  context: ValueContext;
  onPick(index: number, row: RecordRow | undefined, event: MouseEvent): void;
}

const Row = memo(function Row({
  index,
  row,
  columns,
  widths,
  selected,
  focused,
  start,
  context,
  onPick,
}: RowProps) {
  return (
    <div
      id={`records-row-${index}`}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      className={`grid-row${selected ? ' is-selected' : ''}${focused ? ' is-focused' : ''}${row ? '' : ' is-loading'}`}
      style={{ transform: `translateY(${start}px)` }}
      onMouseDown={(event) => onPick(index, row, event)}
      data-record-id={row?.id}
    >
      {row ? (
        columns.map((column) => (
          <div
            key={column.key}
            role="gridcell"
            className="grid-cell"
            style={{ width: widths[column.key] }}
          >
            <FieldValue
              type={column.type}
              value={fieldValue(row, column.key)}
              context={context}
              recordId={row.id}
            />
          </div>
        ))
      ) : (
        // One element for a row still on its way: a fast scroll passes thousands of them.
        <div role="gridcell" className="grid-cell grid-cell--loading" aria-label="Loading" />
      )}
    </div>
  );
});

function ResizeHandle({ column, width }: { column: RecordsField; width: number }) {
  const resize = useRecords((s) => s.resizeColumn);
  const onPointerDown = (event: PointerEvent<HTMLSpanElement>) => {
    event.preventDefault();
    event.stopPropagation();
    const startX = event.clientX;
    const target = event.currentTarget;
    target.setPointerCapture(event.pointerId);
    const move = (e: globalThis.PointerEvent) => resize(column.key, width + e.clientX - startX);
    const up = () => {
      target.removeEventListener('pointermove', move);
      target.removeEventListener('pointerup', up);
    };
    target.addEventListener('pointermove', move);
    target.addEventListener('pointerup', up);
  };
  return (
    <span
      role="separator"
      aria-orientation="vertical"
      aria-label={`Resize ${column.label}`}
      aria-valuenow={width}
      tabIndex={0}
      className="grid-resize"
      onPointerDown={onPointerDown}
      onKeyDown={(event) => {
        if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
        event.preventDefault();
        resize(column.key, width + (event.key === 'ArrowRight' ? RESIZE_STEP : -RESIZE_STEP));
      }}
    />
  );
}

interface HeaderCellProps {
  column: RecordsField;
  width: number;
  /** For the column the list is sorted by: the currencies of the rows on screen (currency only). */
  currencies: readonly string[];
}

function HeaderCell({ column, width, currencies }: HeaderCellProps) {
  const sort = useRecords((s) => s.sort);
  const setSort = useRecords((s) => s.setSort);
  const direction =
    sort?.field === column.key ? (sort.descending ? 'descending' : 'ascending') : 'none';
  const title = headerTitle(column, direction !== 'none', currencies);
  return (
    <div role="columnheader" aria-sort={direction} className="grid-header-cell" style={{ width }}>
      {column.sortable ? (
        <button
          type="button"
          className="grid-sort"
          onClick={() => setSort(column.key)}
          title={title}
        >
          <span className="grid-sort__label">{column.label}</span>
          <span className="grid-sort__arrow" aria-hidden="true">
            {direction === 'ascending' ? '▲' : direction === 'descending' ? '▼' : ''}
          </span>
        </button>
      ) : (
        <span className="grid-sort grid-sort--static" title={title}>
          <span className="grid-sort__label">{column.label}</span>
        </span>
      )}
      <ResizeHandle column={column} width={width} />
    </div>
  );
}

/** The records of one list, virtualised: only the rows on screen exist in the page. */
export function RecordsTable({ label }: { label: string }) {
  const store = useRecordsStore();
  const columns = useRecords((s) => s.columns);
  const layout = useRecords((s) => s.layout);
  const total = useRecords((s) => s.total) ?? 0;
  const focused = useRecords((s) => s.focused);
  const selection = useRecords((s) => s.selection);
  const generation = useRecords((s) => s.shownGeneration);
  const detailOpen = useRecords((s) => s.detail !== null);
  const listLoading = useRecords((s) => s.listLoading);
  const sort = useRecords((s) => s.sort);
  useRecords((s) => s.rowsVersion);
  const scroller = useRef<HTMLDivElement>(null);
  const header = useRef<HTMLDivElement>(null);

  // The virtualizer re-renders this component itself; no memoized child receives its functions.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;

  useEffect(() => {
    store.getState().showRows(first, last);
  }, [store, first, last, generation]);

  // A new list (filter, sort, module) starts at its top.
  const scrollReset = useRecords((s) => s.scrollReset);
  useEffect(() => {
    if (scroller.current) scroller.current.scrollTop = 0;
  }, [scrollReset]);

  // The panel follows the focus when the focus moves, not when the panel opens: a record opened
  // from search or the recent list stays, whatever row the table had focused.
  const followed = useRef(focused);
  useEffect(() => {
    if (followed.current === focused) return;
    followed.current = focused;
    if (!detailOpen) return;
    const timer = setTimeout(() => {
      const row = store.getState().row(store.getState().focused);
      const state = store.getState();
      if (row && state.detail && state.detail.recordId !== row.id) void state.openRecord(row.id);
    }, FOLLOW_FOCUS_MS);
    return () => clearTimeout(timer);
  }, [focused, detailOpen, store]);

  const onPick = useCallback(
    (index: number, row: RecordRow | undefined, event: MouseEvent) => {
      const state = store.getState();
      if (event.button !== 0) return;
      if (event.shiftKey)
        state.focusRow(index, event.ctrlKey || event.metaKey ? 'extend-keep' : 'extend');
      else if (event.ctrlKey || event.metaKey) state.focusRow(index, 'toggle');
      else {
        state.focusRow(index, 'only');
        if (row) void state.openRecord(row.id);
      }
    },
    [store],
  );

  const visible = useMemo(
    () =>
      (layout?.visible ?? [])
        .map((key) => columns?.fields.find((f) => f.key === key))
        .filter((f): f is RecordsField => f !== undefined),
    [layout, columns],
  );
  const widths = useMemo(() => layout?.widths ?? {}, [layout]);
  // A list sorted by a currency: its header names the currencies on screen.
  const sortedByCurrency =
    sort !== undefined && visible.some((c) => c.key === sort.field && c.type === 'currency');
  const currencies = sortedByCurrency
    ? currenciesShown(
        items.map((item) => store.getState().row(item.index)),
        sort.field,
      )
    : [];
  const width = visible.reduce((sum, c) => sum + (widths[c.key] ?? 160), 0);
  const timeZone = columns?.timeZone ?? 'UTC';
  const context = useMemo<ValueContext>(() => ({ timeZone }), [timeZone]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const state = store.getState();
    const page = Math.max(1, last - first - 2);
    const extend = event.shiftKey ? 'extend' : event.ctrlKey || event.metaKey ? 'move' : 'only';
    let target: number | null = null;
    switch (event.key) {
      case 'ArrowDown':
        target = state.focused + 1;
        break;
      case 'ArrowUp':
        target = state.focused - 1;
        break;
      case 'PageDown':
        target = state.focused + page;
        break;
      case 'PageUp':
        target = state.focused - page;
        break;
      case 'Home':
        target = 0;
        break;
      case 'End':
        target = total - 1;
        break;
      case 'Enter': {
        const row = state.row(state.focused);
        if (row) void state.openRecord(row.id);
        event.preventDefault();
        return;
      }
      case ' ':
        state.focusRow(state.focused, 'toggle');
        event.preventDefault();
        return;
      case 'a':
        if (event.ctrlKey || event.metaKey) {
          state.selectEverything();
          event.preventDefault();
        }
        return;
      case 'c':
        // The selected rows as the table shows them (the toolbar's Copy says how it went).
        if ((event.ctrlKey || event.metaKey) && state.selection.ranges.length > 0) {
          void state.copySelection(copyToClipboard);
          event.preventDefault();
        }
        return;
      case 'Escape':
        if (state.detail) {
          state.closeDetail();
          event.preventDefault();
        }
        return;
      default:
        return;
    }
    event.preventDefault();
    const clamped = Math.max(0, Math.min(total - 1, target));
    state.focusRow(clamped, extend);
    virtualizer.scrollToIndex(clamped, { align: 'auto' });
  };

  return (
    <div
      className="grid"
      role="grid"
      aria-label={label}
      aria-rowcount={total + 1}
      aria-colcount={visible.length}
      aria-multiselectable="true"
      aria-activedescendant={total > 0 ? `records-row-${focused}` : undefined}
      aria-busy={listLoading}
      tabIndex={0}
      onKeyDown={onKeyDown}
      data-generation={generation}
      data-total={total}
    >
      <div className="grid-header" ref={header} role="rowgroup">
        <div role="row" aria-rowindex={1} className="grid-header-row" style={{ width }}>
          {visible.map((column) => (
            <HeaderCell
              key={column.key}
              column={column}
              width={widths[column.key] ?? 160}
              currencies={column.key === sort?.field ? currencies : []}
            />
          ))}
        </div>
      </div>
      <div
        ref={scroller}
        className="grid-body"
        role="rowgroup"
        onScroll={(event) => {
          if (header.current) header.current.scrollLeft = event.currentTarget.scrollLeft;
        }}
      >
        <div className="grid-sizer" style={{ height: virtualizer.getTotalSize(), width }}>
          {items.map((item) => (
            <Row
              key={item.index}
              index={item.index}
              row={store.getState().row(item.index)}
              columns={visible}
              widths={widths}
              selected={isSelected(selection, item.index)}
              focused={item.index === focused}
              start={item.start}
              context={context}
              onPick={onPick}
            />
          ))}
        </div>
      </div>
    </div>
  );
}
