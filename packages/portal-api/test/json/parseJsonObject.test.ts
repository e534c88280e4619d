import { describe, expect, it } from 'vitest';
import { parseJsonObject } from '@portaldesk/portal-api/json/parseJsonObject';

describe('parseJsonObject', () => {
  it('reads the object a stored JSON text holds, and {} for anything else', () => {
    expect(parseJsonObject('{"cf_cost":{"amount":5},"cf_tags":["41"]}')).toEqual({
      cf_cost: { amount: 5 },
      cf_tags: ['41'],
    });
    // An array's length and methods must not read as keys; damaged text must not throw.
    for (const text of ['["a"]', 'null', '42', '"text"', '{"cut', '']) {
      expect(parseJsonObject(text), text).toEqual({});
    }
  });
});
