/**
 * A request the contract refuses is refused in words a person reads, naming the place and the
 * limit as the contract's schema has it (never a copy of the limit): lengths with what was given,
 * required values, choices, nested places as "Filter, condition 1, value".
 */
import { describe, expect, it } from 'vitest';
import { ContractDispatcher, type Handlers } from '../../../../src/main/bridge/dispatcher';
import { requests } from '../../../../src/shared/ipc/contract';
import {
  issuesByField,
  issuesInWords,
  placeInWords,
} from '../../../../src/shared/ipc/issuesInWords';
import fc from 'fast-check';

const trusted = { transport: 'internal', trusted: true, description: 'unit test' } as const;
const dispatcher = new ContractDispatcher({} as Handlers, {
  warn: () => undefined,
  error: () => undefined,
});
const refusal = async (name: string, args: unknown) => {
  const outcome = await dispatcher.dispatch(name, args, trusted);
  if (outcome.ok) throw new Error('accepted');
  return outcome.error.message;
};

describe('contract refusals in words', () => {
  it('says a length limit with what was given', async () => {
    const max = (
      requests['router.createPublisher'].args as unknown as {
        shape: { name: { maxLength: number } };
      }
    ).shape.name.maxLength;
    expect(await refusal('router.createPublisher', { name: 'x'.repeat(max + 14) })).toBe(
      `Name: at most ${max} characters (${max + 14} given). Nothing was changed.`,
    );
  });

  it('says what is missing, what the choices are, and where in a nested value', async () => {
    const message = await refusal('router.saveRule', {
      name: '',
      status: 'sometimes',
      retryCount: 1,
      eventConfigIds: [],
      targetIds: [],
      filter: {
        operator: 'AND',
        conditions: [{ path: 'a', type: 'number', comparator: 'gt', value: '' }],
      },
    });
    expect(message).toMatch(/^Name: required\./);
    expect(message).toMatch(/Status: one of [a-z, ]+\./);
    expect(message).not.toMatch(/Too big|Too small|expected string|Invalid input/);
    expect(message).toMatch(/Nothing was changed\.$/);
  });

  it('says what the nearest shape of a union wanted, where', async () => {
    const message = await refusal('router.saveRule', {
      name: 'r',
      status: 'active',
      retryCount: 1,
      eventConfigIds: ['1'],
      targetIds: ['2'],
      filter: {
        operator: 'AND',
        conditions: [{ path: 'a', type: 'number', comparator: 'gt', value: Number.NaN }],
      },
    });
    expect(message).toMatch(/^Filter, condition 1, value: /);
    expect(message).not.toContain('Invalid input');
  });

  it('says a type in words, and an argument a request does not take', async () => {
    expect(await refusal('records.portals', { x: 1 })).toBe(
      'The request: must be left out. Nothing was changed.',
    );
    expect(await refusal('router.createPublisher', { name: ['x'] })).toBe(
      'Name: must be text. Nothing was changed.',
    );
  });

  it('names places plainly', () => {
    expect(placeInWords(['filter', 'conditions', 0, 'value'])).toBe('Filter, condition 1, value');
    expect(placeInWords(['eventConfigIds'])).toBe('Event config ids');
    expect(placeInWords(['entries', 2])).toBe('Entry 3');
    expect(placeInWords([])).toBe('The request');
  });
});

describe('issuesByField', () => {
  it("holds exactly issuesInWords' sentences, each under the argument it names (or '' for the whole)", () => {
    const args = requests['accounts.selfClient'].args;
    const text = fc.oneof(
      fc.string({ maxLength: 5 }),
      fc.constant(''),
      fc.constant('x'.repeat(501)),
    );
    const input = fc.oneof(
      fc.record(
        {
          profileId: text,
          dataCenter: text,
          clientId: text,
          clientSecret: text,
          code: text,
          scopes: text,
          extra: text,
        },
        { requiredKeys: [] },
      ),
      fc.constantFrom(null, 'text', 7, []),
    );
    fc.assert(
      fc.property(input, (value) => {
        const parsed = args.safeParse(value);
        if (parsed.success) return;
        const byField = issuesByField(parsed.error, value);
        const all = [...byField.values()].flat();
        expect(new Set(all)).toEqual(new Set(issuesInWords(parsed.error, value)));
        for (const [field, words] of byField) {
          for (const sentence of words) {
            if (field === '') expect(sentence).toMatch(/^The request: |: .+ not expected here\.$/);
            else expect(sentence.startsWith(`${placeInWords([field])}`)).toBe(true);
          }
        }
      }),
    );
  });
});
