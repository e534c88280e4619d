/**
 * The demo's "Change this record on the server": the colleague's values (pure, generated cases)
 * and the refusals, above all that an account of a real service never reaches anything.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENTITY_LIMITS } from '@portaldesk/portal-api/domain/customFieldTypes';
import {
  changeDemoRecord,
  demoChangeMessage,
  planDemoChange,
  type DemoRecordChangeDeps,
  type MirroredRecord,
} from '../../../src/main/auth/demoRecordChange';
import type { DemoRecordEdit } from '../../../src/main/auth/demoService';

const time = fc
  .tuple(
    fc.integer({ min: 0, max: 23 }),
    fc.integer({ min: 0, max: 59 }),
    fc.integer({ min: 0, max: 59 }),
  )
  .map((parts) => parts.map((n) => String(n).padStart(2, '0')).join(':'));
const facts = fc.record({
  module: fc.constant('assets'),
  serverName: fc.string({ minLength: 1, maxLength: ENTITY_LIMITS.name }),
  serverDescription: fc.oneof(fc.constant(''), fc.string({ maxLength: 300 })),
  pendingFields: fc.subarray(['name', 'description', 'status', 'cf_category']),
});
const length = (text: string) => [...text].length;

describe('planDemoChange', () => {
  it('always changes the name, within the limit, and never to the same value twice in a row', () => {
    fc.assert(
      fc.property(facts, time, time, (record, first, second) => {
        const once = planDemoChange(record, first);
        expect(once.changes.name).not.toBe(record.serverName);
        expect(length(once.changes.name)).toBeLessThanOrEqual(ENTITY_LIMITS.name);
        expect(once.changes.name.endsWith(`(changed on the server ${first})`)).toBe(true);
        // A second change (the server now holds the first) replaces the mark instead of adding
        // one: it gives what one change of the original would.
        const twice = planDemoChange({ ...record, serverName: once.changes.name }, second);
        expect(twice.changes.name).toBe(planDemoChange(record, second).changes.name);
        if (second !== first) expect(twice.changes.name).not.toBe(once.changes.name);
      }),
    );
  });

  it('changes the description only when the user has an edit of it queued', () => {
    fc.assert(
      fc.property(facts, time, (record, at) => {
        const plan = planDemoChange(record, at);
        const queued = record.pendingFields.includes('description');
        expect(plan.fields).toEqual(queued ? ['name', 'description'] : ['name']);
        expect('description' in plan.changes).toBe(queued);
        if (queued) {
          const description = (plan.changes as { description: string }).description;
          expect(description).not.toBe(record.serverDescription);
          expect(description.endsWith(`Changed on the server ${at} by another user.`)).toBe(true);
          expect(length(description)).toBeLessThanOrEqual(ENTITY_LIMITS.description);
        }
      }),
    );
  });

  it('keeps the name readable at the limit: the old name is cut, the mark stays whole', () => {
    const plan = planDemoChange(
      { module: 'assets', serverName: 'a'.repeat(200), serverDescription: '', pendingFields: [] },
      '09:30:00',
    );
    expect(length(plan.changes.name)).toBe(200);
    expect(plan.changes.name).toMatch(/^a+ \(changed on the server 09:30:00\)$/);
  });
});

describe('demoChangeMessage', () => {
  it('says who changed what, and how the conflict shows, in both cases', () => {
    expect(demoChangeMessage('Priya Nair', ['name'], ['name'])).toBe(
      'Priya Nair changed the name of this record on the demo service. Your queued edit of the name will meet theirs when it is sent: the Outbox then shows the conflict, where you choose Keep mine or Take theirs.',
    );
    expect(demoChangeMessage('Priya Nair', ['name'], [])).toMatch(
      /^Priya Nair changed the name of this record on the demo service\. This copy shows your old name until the next sync: edit the name here/,
    );
    expect(demoChangeMessage('Priya Nair', ['name', 'description'], ['description'])).toContain(
      'changed the name and description of this record',
    );
  });
});

describe('changeDemoRecord', () => {
  function deps(
    account: { label: string; profileId: string; profileName: string } | undefined,
    record: MirroredRecord,
  ) {
    const sent: DemoRecordEdit[] = [];
    const value: DemoRecordChangeDeps = {
      accountOfPortal: () => account,
      record: () => record,
      demo: async () => ({
        changeRecordAsColleague: async (edit) => {
          sent.push(edit);
          return { changedBy: 'Priya Nair' };
        },
      }),
      clockTime: () => '10:00:00',
    };
    return { value, sent };
  }
  const demoAccount = {
    label: 'northwind',
    profileId: 'demo',
    profileName: 'PortalDesk demo portal',
  };
  const onService: MirroredRecord = {
    kind: 'on_service',
    module: 'assets',
    serverName: 'Laptop 7',
    serverDescription: '',
    pendingFields: ['name'],
  };

  it('refuses every account of a real service in words, and reaches nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 64 }).filter((id) => id !== 'demo'),
        async (profileId) => {
          const { value, sent } = deps(
            { label: 'acme', profileId, profileName: 'Acme Projects' },
            onService,
          );
          let reached = false;
          value.demo = async () => {
            reached = true;
            throw new Error('must not be reached');
          };
          await expect(changeDemoRecord(value, '1', '2')).rejects.toThrow(
            /^Only records of the demo portal can be changed on the server from PortalDesk: "acme" belongs to Acme Projects, a real service, .*Nothing was changed\.$/,
          );
          expect(reached).toBe(false);
          expect(sent).toEqual([]);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('refuses records that are not on the demo service, in words', async () => {
    const cases: [MirroredRecord, RegExp][] = [
      [{ kind: 'missing' }, /not in the local mirror of the demo portal/],
      [{ kind: 'local' }, /created here and is not on the demo service yet/],
      [{ kind: 'trashed' }, /in the recycle bin/],
    ];
    for (const [record, words] of cases) {
      const { value, sent } = deps(demoAccount, record);
      await expect(changeDemoRecord(value, '1', '2')).rejects.toThrow(words);
      expect(sent).toEqual([]);
    }
    const { value } = deps(undefined, onService);
    await expect(changeDemoRecord(value, '1', '2')).rejects.toThrow(
      /not in the local mirror of any signed-in account/,
    );
  });

  it("sends the planned change for a demo record and says the service's refusal in words", async () => {
    const { value, sent } = deps(demoAccount, onService);
    const result = await changeDemoRecord(value, '11', '22');
    expect(sent).toEqual([
      {
        portalId: '11',
        module: 'assets',
        recordId: '22',
        changes: { name: 'Laptop 7 (changed on the server 10:00:00)' },
      },
    ]);
    expect(result).toMatchObject({ fields: ['name'], changedBy: 'Priya Nair' });
    value.demo = async () => ({
      changeRecordAsColleague: async () => {
        throw new Error('module assets is deactivated; activate it to change its records.');
      },
    });
    await expect(changeDemoRecord(value, '11', '22')).rejects.toThrow(
      'The demo service did not change the record: module assets is deactivated; activate it to change its records. Nothing was changed here.',
    );
  });
});
