import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/main/api/client/apiError';
import { collectAll, listAllPortals, paginate } from '../../../../src/main/api/client/paginate';
import type { Filter } from '@portaldesk/portal-api/filter';
import { clientSession } from './session';

describe('the client against the emulator: portals and records', () => {
  it("lists the user's portals and reads each one's details", async () => {
    const { client, emulator, malformed } = await clientSession();
    const portals = await listAllPortals(client, { perPage: 1 });
    expect(portals.items.map((p) => p.id).sort()).toEqual([...emulator.portals].sort());
    expect(portals.skipped).toEqual([]);
    for (const portal of portals.items) {
      const details = await client.getPortal({ portal_id: portal.id });
      expect(details.id).toBe(portal.id);
      expect(details.name).toBe(portal.portal_name);
      expect(details.timezone).toBe(portal.timezone);
    }
    expect(malformed).toEqual([]);
  });

  it('walks every page of a module, each record once, and agrees with the count at /entities/20', async () => {
    const { client, records, storedCount, malformed } = await clientSession({
      emulator: { records: 120 },
    });
    const seen: string[] = [];
    let pages = 0;
    let lastTotal: number | null = null;
    for await (const page of paginate(client.listEntities, records, { perPage: 7 })) {
      pages++;
      seen.push(...page.items.map((item) => item.id));
      lastTotal = page.pageInfo.page_count;
    }
    const total = storedCount();
    expect(total).toBeGreaterThan(14);
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    expect(pages).toBe(Math.ceil(total / 7));
    expect(lastTotal).toBe(total);
    await expect(client.countEntities(records)).resolves.toBe(total);
    expect(malformed).toEqual([]);
  });

  it('counts with a filter exactly the records a filtered list returns', async () => {
    const { client, records } = await clientSession({ emulator: { records: 120 } });
    const filter: Filter = {
      criteria: [
        { field_name: 'status', criteria_condition: 'all_open' },
        { field_name: 'name', criteria_condition: 'contains', value: ['o'] },
      ],
      pattern: '1 AND 2',
    };
    const listed = await collectAll(client.listEntities, {
      ...records,
      query: { filter, sort_by: 'DESC(last_updated_time)' },
    });
    const counted = await client.countEntities({ ...records, query: { filter } });
    const all = await client.countEntities(records);
    expect(counted).toBe(listed.length);
    expect(counted).toBeGreaterThan(0);
    expect(counted).toBeLessThan(all);
    expect(listed.every((item) => !item.is_closed && /o/i.test(item.name))).toBe(true);
    const times = listed.map((item) => item.last_updated_time);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('creates, changes, trashes, restores and deletes a record', async () => {
    const { client, records, storedCount } = await clientSession();
    const before = storedCount();
    const created = await client.createEntity({
      ...records,
      body: { name: 'Client test laptop', cf_serial_number: 'CT-1', cf_tags: ['Critical'] },
    });
    expect(created.name).toBe('Client test laptop');
    expect(created.custom).toMatchObject({ cf_serial_number: 'CT-1', cf_tags: ['Critical'] });
    expect(storedCount()).toBe(before + 1);
    const record = { ...records, entity_id: created.id };

    const changed = await client.updateEntity({
      ...record,
      body: { name: 'Renamed laptop', cf_tags: [{ add: ['Leased'], remove: [] }] },
    });
    expect(changed.name).toBe('Renamed laptop');
    expect(changed.custom.cf_tags).toEqual(['Critical', 'Leased']);
    await expect(client.getEntity(record)).resolves.toMatchObject({ name: 'Renamed laptop' });

    const trashed = await client.trashEntity(record);
    expect(trashed.trashed_time).not.toBeNull();
    await expect(client.countEntities(records)).resolves.toBe(before);
    const restored = await client.restoreEntity(record);
    expect(restored.trashed_time).toBeNull();
    await expect(client.countEntities(records)).resolves.toBe(before + 1);

    const timeline = await client.listStatusTimeline(record);
    expect(timeline.items).toHaveLength(1);
    expect(timeline.items[0]!.to_status.id).toBe(created.status.id);

    await client.trashEntity(record);
    await expect(client.deleteEntity(record)).resolves.toBeUndefined();
    const gone = await client.getEntity(record).catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(ApiError);
    expect(gone).toMatchObject({ kind: 'permanent', status: 404, errorCode: 'RESOURCE_NOT_FOUND' });
    expect(storedCount()).toBe(before);
  });

  it('surfaces a validation error as permanent, with the server message, and changes nothing', async () => {
    const { client, records, storedCount, sends } = await clientSession();
    const before = storedCount();
    const error = (await client
      .createEntity({ ...records, body: { name: 'x'.repeat(201), cf_serial_number: 'S' } })
      .catch((reason: unknown) => reason)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      kind: 'permanent',
      status: 400,
      errorCode: 'INVALID_PARAMETER_VALUE',
      endpoint: { name: 'createEntity' },
    });
    expect(error.serverMessage).toMatch(/name is longer than 200 characters/);
    expect(error.message).toBe(
      `The service refused to create the record: ${error.serverMessage!.replace(/\.?$/, '.')} Nothing was changed on the service; correct it and try again.`,
    );
    expect(sends).toHaveLength(1);
    expect(storedCount()).toBe(before);
  });
});

describe('the client against the emulator: comments', () => {
  it('adds, lists, reads, changes, counts and deletes comments under the profile segment', async () => {
    const { client, records, sends } = await clientSession();
    const [first] = (await client.listEntities({ ...records, query: { per_page: 1 } })).items;
    const record = { ...records, entity_id: first!.id };
    const before = await client.countComments(record);

    const added = await client.createComment({
      ...record,
      body: { content: 'Checked in at the desk' },
    });
    expect(sends.at(-1)!.url).toContain('/entity/' + first!.id + '/record%20comments');
    await expect(client.countComments(record)).resolves.toBe(before + 1);

    const listed = await collectAll(client.listComments, {
      ...record,
      query: { sort_by: 'DESC(created_time)' },
    });
    expect(listed[0]!.id).toBe(added.id);
    expect(listed).toHaveLength(before + 1);

    const changed = await client.updateComment({
      ...record,
      comment_id: added.id,
      body: { content: 'Checked out again' },
    });
    expect(changed.content).toBe('Checked out again');
    await expect(client.getComment({ ...record, comment_id: added.id })).resolves.toMatchObject({
      content: 'Checked out again',
    });
    await client.deleteComment({ ...record, comment_id: added.id });
    await expect(client.countComments(record)).resolves.toBe(before);
  });

  it('follows a different comment segment from the profile', async () => {
    const { client, records, sends } = await clientSession({
      emulator: { commentSegment: 'case notes' },
    });
    const [first] = (await client.listEntities({ ...records, query: { per_page: 1 } })).items;
    const comment = await client.createComment({
      ...records,
      entity_id: first!.id,
      body: { content: 'noted' },
    });
    expect(comment.content).toBe('noted');
    expect(sends.at(-1)!.url).toMatch(/\/case%20notes$/);
  });
});
