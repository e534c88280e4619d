/**
 * The status rules the editor and the engine apply (src/shared/configRules/statusRules.ts) against
 * the emulator's own checks, over generated statuses sent with the body the replay sends
 * (statusOps.ts): whatever the rules accept for a new status (its name among the module's, its
 * colour, its transitions), the service creates, and whatever they refuse, the service refuses.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  statusColorProblem,
  statusNameProblem,
  statusTransitionsProblem,
} from '../../../src/shared/configRules/statusRules';
import { paramFields } from '../../../src/main/configure/layoutOps';
import { statusBody, statusOpAction } from '../../../src/main/configure/statusOps';
import { portalSession } from '../../support/emulator';

const name = fc.oneof(
  fc.constantFrom('Open', 'open ', ' CLOSED', 'Ünïcødé', '日本語', '😀', ' ', '', '\t'),
  fc.string({ minLength: 0, maxLength: 20 }),
  fc.string({ minLength: 95, maxLength: 104, unit: 'grapheme-ascii' }),
);
const color = fc.oneof(
  fc.constantFrom('#2a64d6', '#FFFFFF', '#2a64d', '2a64d6', '#gggggg', 'red', '#2a64d6ff'),
  fc.stringMatching(/^#[0-9a-fA-F]{5,7}$/),
);

describe('status rules agree with the service', () => {
  it('accepts exactly the new statuses the emulator creates (names, colours, transitions)', async () => {
    const session = await portalSession({ records: 10 });
    const fields = await session.call('GET', '/settings/fields?module=assets&page=1&per_page=200');
    const statusField = (fields.body.fields as { id: string; field_type: string }[]).find(
      (field) => field.field_type === 'status',
    )!;
    let created = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(
        name,
        color,
        fc.boolean(),
        fc.array(fc.nat({ max: 30 }), { maxLength: 3 }),
        fc.boolean(),
        async (statusName, statusColor, closed, picks, bogus) => {
          const listed = await session.call(
            'GET',
            `/settings/options?module=assets&field=${statusField.id}&page=1&per_page=200&index=0&range=200`,
          );
          const existing = (listed.body.statuses as { id: string; name: string }[]).map((s) => ({
            id: s.id,
            name: s.name,
          }));
          const transitions = picks.map((pick) => existing[pick % existing.length]!.id);
          if (bogus) transitions.push('999999999');
          const problem =
            statusNameProblem(statusName, existing) ??
            statusColorProblem(statusColor) ??
            statusTransitionsProblem(transitions, existing, null);
          const op = {
            kind: 'config' as const,
            action: statusOpAction('addStatuses'),
            fields: paramFields({
              field_id: statusField.id,
              statuses: [
                {
                  id: 'tmp-st-0000000000000000',
                  name: statusName,
                  color: statusColor,
                  closed,
                  transitions,
                },
              ],
            }),
          };
          const body = statusBody(op, 'assets');
          const reply = await session.call('POST', '/settings/options', body);
          if (problem === null) {
            expect(reply.status, JSON.stringify({ body, reply: reply.body })).toBe(201);
            created++;
          } else {
            expect(reply.status, JSON.stringify({ body, problem })).toBeGreaterThanOrEqual(400);
            expect(reply.status).toBeLessThan(500);
            refused++;
          }
        },
      ),
      { numRuns: 150 },
    );
    // The generators reach both sides.
    expect(created).toBeGreaterThan(5);
    expect(refused).toBeGreaterThan(5);
  });
});
