/**
 * An import that creates: an XLSX typed as a spreadsheet program would (numbers, yes/no and dates
 * as typed cells, options and users by name), one row failing, checked, confirmed, and replayed
 * to the emulator: one POST per ready row, the records there with exactly the file's values, the
 * failing row nowhere.
 */
import ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventHub } from '../../../src/main/bridge/eventHub';
import { RecordsImports } from '../../../src/main/recordsImport/recordsImports';
import { tempDir } from '../../support/tempDir';
import { outboxSession } from '../outbox/outboxSession';

describe('import as create, replayed', () => {
  it('creates exactly the ready rows on the emulator, with the values of the file', async () => {
    const s = await outboxSession({ records: 20 });
    const form = s.outbox.form(s.portalId, s.module.id);
    const fieldOf = (key: string) => form.fields.find((f) => f.key === key)!;
    const category = fieldOf('cf_category').options[0]!.name;
    const dir = tempDir('portaldesk-import-');
    const file = path.join(dir, 'new.xlsx');
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('New');
    sheet.addRow(['Name', 'cf_quantity', 'cf_category', 'cf_purchase_date', 'Serial number']);
    sheet.addRow(['Imported laptop', 4, category, new Date(Date.UTC(2026, 0, 31)), 'SN-IMP-1']);
    sheet.addRow(['Imported desk', 1.5, category, '2026-02-01', 'SN-IMP-2']);
    sheet.addRow(['Imported chair', 2, category, '2026-02-02', 'SN-IMP-3']);
    await workbook.xlsx.writeFile(file);

    const imports = new RecordsImports({
      db: s.store.db,
      dataDir: dir,
      mirror: s.mirror,
      outbox: s.outbox,
      events: new EventHub(),
    });
    s.outbox.setWorkOffline(true);
    const { uploadId } = imports.upload({
      fileName: 'new.xlsx',
      offset: 0,
      chunk: readFileSync(file).toString('base64'),
      last: true,
    });
    const opened = await imports.open({ portalId: s.portalId, moduleId: s.module.id, uploadId });
    const targets = opened.columns.map((c) => c.target);
    expect(targets).toEqual([
      'name',
      'cf_quantity',
      'cf_category',
      'cf_purchase_date',
      'cf_serial_number',
    ]);
    imports.check({ importId: opened.importId, targets, mode: 'create' });
    await imports.settled(opened.importId);
    expect(imports.state(opened.importId)).toMatchObject({ ready: 2, failing: 1, unchanged: 0 });
    expect(imports.failures(opened.importId, 0, 10).failures).toEqual([
      { row: 3, column: 'cf_quantity', reason: 'a whole number.' },
    ]);
    imports.confirm(opened.importId);
    await imports.settled(opened.importId);
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.writes().filter((w) => w.method === 'POST')).toHaveLength(2);
    const created = s.store.db
      .prepare("SELECT id, name FROM records WHERE name LIKE 'Imported %' ORDER BY name")
      .all() as { id: string; name: string }[];
    expect(created.map((r) => r.name)).toEqual(['Imported chair', 'Imported laptop']);
    const laptop = await s.serverRecord(created[1]!.id);
    expect(laptop).toMatchObject({
      name: 'Imported laptop',
      cf_quantity: 4,
      cf_category: category,
      cf_purchase_date: '2026-01-31',
      cf_serial_number: 'SN-IMP-1',
    });
    expect(await s.serverRecord(created[0]!.id)).toMatchObject({
      cf_quantity: 2,
      cf_purchase_date: '2026-02-02',
    });
    imports.close();
  });
});
