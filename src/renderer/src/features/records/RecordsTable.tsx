import { useVirtualizer } from '@tanstack/react-virtual';
import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
} from 'react';
import type { RecordRow, RecordsField } from '../../../../shared/ipc/areas/records';
import { currenciesShown, headerTitle } from './columnLayout';
import { fieldValue, type ValueContext } from '../../../../shared/recordValues/describeValue';
import { FieldValue } from './FieldValue';
import { useRecords, useRecordsStore } from './RecordsContext';
import { isEmpty, isSelected } from './rowSelection';
import { copyToClipboard } from './copyToClipboard';
import { HEADER_ROW, nextCell } from './gridFocus';
import { pinnedRow, tabStopRow } from './pinnedRow';

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
  /** The column holding the table's one tab stop when it is in this row, otherwise null. */
  tabCol: number | null;
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
  tabCol,
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
        columns.map((column, col) => (
          <div
            key={column.key}
            role="gridcell"
            aria-colindex={col + 1}
            tabIndex={tabCol === col ? 0 : -1}
            data-tab-stop={tabCol === col || undefined}
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
        <div
          role="gridcell"
          aria-colindex={1}
          aria-colspan={Math.max(1, columns.length)}
          tabIndex={tabCol === null ? -1 : 0}
          data-tab-stop={tabCol !== null || undefined}
          className="grid-cell grid-cell--loading"
          aria-label="Loading"
        />
      )}
    </div>
  );
});

/** A header's keys beyond the grid's movement: Shift+←/→ narrow and widen its column. */
const RESIZE_KEYS = 'Shift+ArrowLeft Shift+ArrowRight';

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
  // Pointer only, and hidden from assistive technology: inside the column header it made the
  // header's name "Status Resize Status". The keyboard resizes from the header itself (Shift+←/→
  // on the grid's one stop), which says so in aria-keyshortcuts.
  return <span aria-hidden="true" className="grid-resize" onPointerDown={onPointerDown} />;
}

interface HeaderCellProps {
  column: RecordsField;
  /** Position among the columns shown (0 = the first). */
  col: number;
  /** Whether this header holds the grid's one tab stop. */
  tabStop: boolean;
  width: number;
  /** For the column the list is sorted by: the currencies of the rows on screen (currency only). */
  currencies: readonly string[];
}

/**
 * Rows Page Up/Down move by: the rows the body shows less two of context (at least one). From the
 * body's height, not the virtualiser's range, which holds OVERSCAN rows more on each side: a page
 * of those skipped rows the person never saw.
 */
function pageRows(body: HTMLElement | null): number {
  return Math.max(1, Math.floor((body?.clientHeight ?? 0) / ROW_HEIGHT) - 2);
}

function HeaderCell({ column, col, tabStop, width, currencies }: HeaderCellProps) {
  const sort = useRecords((s) => s.sort);
  const setSort = useRecords((s) => s.setSort);
  const direction =
    sort?.field === column.key ? (sort.descending ? 'descending' : 'ascending') : 'none';
  const title = headerTitle(column, direction !== 'none', currencies);
  return (
    <div
      role="columnheader"
      aria-colindex={col + 1}
      // On the sorted column's header only (ARIA: one header at a time carries aria-sort).
      aria-sort={direction === 'none' ? undefined : direction}
      className="grid-header-cell"
      style={{ width }}
    >
      {column.sortable ? (
        <button
          type="button"
          className="grid-sort"
          tabIndex={tabStop ? 0 : -1}
          data-tab-stop={tabStop || undefined}
          onClick={() => setSort(column.key)}
          title={title}
          aria-keyshortcuts={RESIZE_KEYS}
        >
          <span className="grid-sort__label">{column.label}</span>
          <span className="grid-sort__arrow" aria-hidden="true">
            {direction === 'ascending' ? '▲' : direction === 'descending' ? '▼' : ''}
          </span>
        </button>
      ) : (
        <span
          className="grid-sort grid-sort--static"
          tabIndex={tabStop ? 0 : -1}
          data-tab-stop={tabStop || undefined}
          title={title}
          aria-keyshortcuts={RESIZE_KEYS}
        >
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
  const listRefreshing = useRecords((s) => s.listRefreshing);
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

  // The column of the one tab stop; its row is the store's focused row.
  const [focusCol, setFocusCol] = useState(0);
  const onPick = useCallback(
    (index: number, row: RecordRow | undefined, event: MouseEvent) => {
      const state = store.getState();
      if (event.button !== 0) return;
      const cell = (event.target as Element).closest('[aria-colindex]');
      if (cell) setFocusCol(Number(cell.getAttribute('aria-colindex')) - 1);
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

  const colCount = visible.length;
  const tabCol = Math.max(0, Math.min(colCount - 1, focusCol));
  // The header holds the stop once the keyboard (or a click) went there, and while no row does.
  const [inHeader, setInHeader] = useState(false);
  const headerStop = colCount > 0 && (inHeader || total === 0);
  const tabRow = headerStop ? null : tabStopRow(focused, total);
  const pinned = pinnedRow(tabRow, { first, last, rendered: items.length > 0 });
  const root = useRef<HTMLDivElement>(null);
  const stopElement = () => root.current?.querySelector<HTMLElement>('[data-tab-stop]');

  // The cell with the tab stop takes the DOM focus whenever the focus is in the table's body
  // (set on focus in, cleared when it leaves for another element), so a key that moves the stop,
  // or a loading row replaced by its cells, never leaves the focus on an old cell or the body.
  const keepFocus = useRef(false);
  useLayoutEffect(() => {
    if (!keepFocus.current) return;
    const stop = stopElement();
    if (stop && !stop.contains(document.activeElement)) stop.focus();
  });
  // The stop follows the focus wherever it lands in the grid (a click on a cell or a header).
  const onGridFocus = (event: FocusEvent<HTMLDivElement>) => {
    keepFocus.current = true;
    const target = event.target as Element;
    // The grid itself is focusable by script (and old habits): it hands the focus to its stop.
    if (target === event.currentTarget) {
      stopElement()?.focus();
      return;
    }
    const header = target.closest('[role="columnheader"]');
    const place = header ?? target.closest('[role="gridcell"]');
    // A row still loading is one cell for the whole row: the column stays what it was.
    if (!place || place.hasAttribute('aria-colspan')) return;
    setInHeader(header !== null);
    setFocusCol(Number(place.getAttribute('aria-colindex') ?? 1) - 1);
  };
  const onGridBlur = (event: FocusEvent<HTMLDivElement>) => {
    const to = event.relatedTarget;
    if (to instanceof Node && event.currentTarget.contains(to)) return;
    if (to !== null) {
      keepFocus.current = false;
      return;
    }
    // No new target: a cell taken out of the page keeps the focus in the table, anything else
    // (a click on nothing, another window) lets it go.
    const left = event.target;
    setTimeout(() => {
      if (left.isConnected) keepFocus.current = false;
    });
  };
  const resize = useRecords((s) => s.resizeColumn);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const from = event.target as Element;
    // A resize handle focused by a click keeps its own arrows.
    if (from.getAttribute('role') === 'separator') return;
    const atHeader = from.closest('.grid-header') !== null;
    const column = visible[tabCol];
    if (atHeader && event.shiftKey && column && /^Arrow(Left|Right)$/.test(event.key)) {
      event.preventDefault();
      const step = event.key === 'ArrowRight' ? RESIZE_STEP : -RESIZE_STEP;
      resize(column.key, (widths[column.key] ?? 160) + step);
      return;
    }
    const state = store.getState();
    const primary = event.ctrlKey || event.metaKey;
    const move = nextCell(
      { row: atHeader ? HEADER_ROW : state.focused, col: tabCol },
      { key: event.key, primary },
      { rows: total, cols: colCount, pageRows: pageRows(scroller.current), header: true },
    );
    if (move) {
      event.preventDefault();
      keepFocus.current = true;
      setFocusCol(move.col);
      setInHeader(move.row === HEADER_ROW);
      if (move.row === HEADER_ROW) return;
      // Shift extends the selection; Ctrl/Cmd with an arrow or page key moves without selecting
      // (Ctrl+Home/End are keys of their own: they select where they land, as Home/End did).
      const keepSelection = primary && event.key !== 'Home' && event.key !== 'End';
      const rowMoved = move.row !== state.focused;
      if (rowMoved || isEmpty(state.selection))
        state.focusRow(move.row, event.shiftKey ? 'extend' : keepSelection ? 'move' : 'only');
      virtualizer.scrollToIndex(move.row, { align: 'auto' });
      return;
    }
    // Ctrl/Cmd+A selects every row from the header too (it is part of the grid).
    if (event.key === 'a' && (event.ctrlKey || event.metaKey)) {
      state.selectEverything();
      event.preventDefault();
      return;
    }
    // Enter and Space on a header are its sort button's.
    if (atHeader) return;
    switch (event.key) {
      case 'Enter': {
        const row = state.row(state.focused);
        if (row) void state.openRecord(row.id);
        event.preventDefault();
        return;
      }
      case ' ':
        // Space selects the focused row (keeping the others), Ctrl/Cmd+Space toggles it: the arrows
        // already select the row they land on, and a plain Space that toggled un-selected it.
        state.focusRow(state.focused, event.ctrlKey || event.metaKey ? 'toggle' : 'add');
        event.preventDefault();
        return;
      case 'c':
        // The selected rows as the table shows them (the toolbar's Copy says how it went).
        if ((event.ctrlKey || event.metaKey) && !isEmpty(state.selection)) {
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
  };

  const rowAt = (index: number, start: number, row = store.getState().row(index)) => (
    <Row
      key={index}
      index={index}
      row={row}
      columns={visible}
      widths={widths}
      selected={isSelected(selection, row?.id)}
      focused={index === focused}
      tabCol={index === tabRow ? tabCol : null}
      start={start}
      context={context}
      onPick={onPick}
    />
  );
  const windowRows = items.map((item) => rowAt(item.index, item.start));

  return (
    <div
      ref={root}
      className="grid"
      role="grid"
      aria-label={label}
      aria-rowcount={total + 1}
      aria-colcount={visible.length}
      aria-multiselectable="true"
      // Cells are read, not edited in place (the record panel edits).
      aria-readonly="true"
      aria-busy={listLoading && !listRefreshing}
      // The tab stop is a cell or a header; a table without columns is one itself.
      tabIndex={colCount === 0 ? 0 : -1}
      onKeyDown={onKeyDown}
      onFocus={onGridFocus}
      onBlur={onGridBlur}
      data-generation={generation}
      data-total={total}
    >
      <div
        className="grid-header"
        ref={header}
        role="rowgroup"
        // The keyboard moving along the header scrolls it to the focused column: the body follows,
        // or the header's columns stood over other columns' cells.
        onScroll={(event) => {
          const body = scroller.current;
          if (body && body.scrollLeft !== event.currentTarget.scrollLeft) {
            body.scrollLeft = event.currentTarget.scrollLeft;
          }
        }}
      >
        <div role="row" aria-rowindex={1} className="grid-header-row" style={{ width }}>
          {visible.map((column, col) => (
            <HeaderCell
              key={column.key}
              column={column}
              col={col}
              tabStop={headerStop && col === tabCol}
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
          {/* One list keyed by row, in row order (a screen reader's browse mode reads the page in
              this order): the focused row keeps its element when it becomes pinned, since it
              leaves the window at the edge it is pinned to. */}
          {pinned === null
            ? windowRows
            : pinned < first
              ? [rowAt(pinned, pinned * ROW_HEIGHT), ...windowRows]
              : [...windowRows, rowAt(pinned, pinned * ROW_HEIGHT)]}
        </div>
      </div>
    </div>
  );
}
