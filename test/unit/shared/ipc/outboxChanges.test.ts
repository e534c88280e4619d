import { describe, expect, it } from 'vitest';
import { requests } from '../../../../src/shared/ipc/contract';

describe('outbox.edit and outbox.create changes', () => {
  it('refuse a member named "__proto__" in words instead of leaving it out silently', () => {
    const edit = JSON.parse(
      '{"portalId":"1","recordId":"2","changes":{"__proto__":{"x":1},"cf_cost":1}}',
    ) as unknown;
    const refused = requests['outbox.edit'].args.safeParse(edit);
    expect(refused.success).toBe(false);
    expect(JSON.stringify(refused.error?.issues)).toMatch(/no field is named \\"__proto__\\"/);
    const create = JSON.parse(
      '{"portalId":"1","moduleId":"2","values":{"name":"A","__proto__":{"x":1}}}',
    ) as unknown;
    expect(requests['outbox.create'].args.safeParse(create).success).toBe(false);
    // `constructor` and `prototype` are keys like any other: refused only as no field key if at all.
    expect(
      requests['outbox.edit'].args.safeParse({
        portalId: '1',
        recordId: '2',
        changes: { cf_cost: 1, constructor: 2 },
      }).success,
    ).toBe(true);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
