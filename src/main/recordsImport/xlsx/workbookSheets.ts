/**
 * Which part of a workbook is its first sheet, and whether its dates count from 1904: read from
 * `xl/workbook.xml` (its `<sheets>` in tab order, `<workbookPr date1904>`) and its relationships
 * `xl/_rels/workbook.xml.rels` (a sheet's `r:id` → the part's path). Read here, like the other
 * parts (README.md), rather than by the private steps of exceljs's WorkbookReader it once
 * borrowed (`_parseRels`, `_parseWorkbook`), which any release of exceljs may change.
 */
import { xmlEvents } from './xmlEvents';

/** The id of a relationship as an attribute names it, whatever its namespace prefix (`r:id`). */
function relationshipId(attributes: Readonly<Record<string, string>>): string | undefined {
  for (const [name, value] of Object.entries(attributes)) {
    const colon = name.indexOf(':');
    if (colon > 0 && name.slice(colon + 1) === 'id' && !name.startsWith('xmlns')) return value;
  }
  return undefined;
}

/** The relationships of a part: each Id's target. */
export async function readRelationships(text: AsyncIterable<string>): Promise<Map<string, string>> {
  const targets = new Map<string, string>();
  const events = xmlEvents(text, {
    open(name, attributes) {
      if (name === 'Relationship' && attributes.Id !== undefined && attributes.Target) {
        targets.set(attributes.Id, attributes.Target);
      }
    },
    close() {},
    text() {},
  });
  for await (const _ of events) void _;
  return targets;
}

export interface WorkbookFacts {
  /**
   * The relationship id of each sheet the user sees, in tab order: a hidden sheet (`state`
   * hidden or veryHidden: the lists a sheet's drop-downs offer, often) has no tab, and read as
   * the first it imported rows the user never saw. All of them if none is visible.
   */
  sheets: string[];
  /** Dates are days since 1904-01-01 (old Mac Excel), not since 1900. */
  date1904: boolean;
}

/** An XML boolean attribute (`1`, `true`; `0`, `false` or absent). */
const isTrue = (value: string | undefined) => value === '1' || value === 'true';

export async function readWorkbook(text: AsyncIterable<string>): Promise<WorkbookFacts> {
  const facts: WorkbookFacts = { sheets: [], date1904: false };
  const hidden: string[] = [];
  let inSheets = false;
  const events = xmlEvents(text, {
    open(name, attributes) {
      if (name === 'workbookPr') facts.date1904 = isTrue(attributes.date1904);
      else if (name === 'sheets') inSheets = true;
      else if (name === 'sheet' && inSheets) {
        const id = relationshipId(attributes);
        const shown = attributes.state === undefined || attributes.state === 'visible';
        if (id !== undefined) (shown ? facts.sheets : hidden).push(id);
      }
    },
    close(name) {
      if (name === 'sheets') inSheets = false;
    },
    text() {},
  });
  for await (const _ of events) void _;
  if (facts.sheets.length === 0) facts.sheets = hidden;
  return facts;
}

/**
 * A part's path in the zip from a relationship's target in `xl/_rels/workbook.xml.rels`: relative
 * to `xl/` (`worksheets/sheet1.xml`, `./worksheets/…`, `../xl/worksheets/…`) or from the zip's
 * root (`/xl/worksheets/sheet1.xml`). Pure.
 */
export function workbookPartPath(target: string): string {
  const parts = target.startsWith('/') ? [] : ['xl'];
  for (const step of target.split('/')) {
    if (step === '' || step === '.') continue;
    if (step === '..') parts.pop();
    else parts.push(step);
  }
  return parts.join('/');
}
