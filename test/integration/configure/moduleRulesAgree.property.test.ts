/**
 * The module rules the Configure form and the engine apply (src/shared/configRules/moduleRules.ts)
 * against the emulator's own checks, over generated names: whatever the rules accept, the service
 * creates (nothing queued is refused later for a length, a blank or a clash), and whatever they
 * refuse for those reasons, the service refuses too. Control characters are ours alone (the rules
 * refuse a name with a tab or line break; the emulator would take it).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  moduleSettingsProblems,
  type ModuleNames,
} from '../../../src/shared/configRules/moduleRules';
import { createBody, opFields, settingsByKey } from '../../../src/main/configure/moduleOps';
import { portalSession } from '../../support/emulator';

const part = fc.oneof(
  fc.constantFrom('Asset', 'assets', ' Vehicles ', 'Ünïcødé', '日本語', '😀', ' ', '', 'Tasks'),
  fc.string({ minLength: 0, maxLength: 30 }),
  fc.string({ minLength: 45, maxLength: 56, unit: 'grapheme-ascii' }),
);

describe('module rules agree with the service', () => {
  it('accepts exactly what the emulator creates (lengths, blanks, name clashes)', async () => {
    const session = await portalSession({ records: 10 });
    let created = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(part, part, async (singular, plural) => {
        const listed = await session.call('GET', '/settings/modules?page=1&per_page=200');
        const others: ModuleNames[] = (
          listed.body.modules as { id: string; singular_name: string; plural_name: string }[]
        ).map((m) => ({ id: m.id, singularName: m.singular_name, pluralName: m.plural_name }));
        const settings = {
          singularName: singular,
          pluralName: plural,
          iconClass: null,
          isAllProjects: true,
          isOverviewNeeded: false,
          defaultLayoutType: 'public' as const,
          projects: [],
        };
        const problems = moduleSettingsProblems(settings, { others, builtIn: false }, true);
        const body = createBody(opFields(settingsByKey({ ...settings, isGlobal: true }), null));
        const reply = await session.call('POST', '/settings/modules', body);
        const ours = Object.keys(problems).length === 0;
        const controlOnly =
          !ours &&
          Object.values(problems).every((problem) => /control characters/.test(problem ?? ''));
        if (ours) {
          expect(reply.status, JSON.stringify({ body, reply: reply.body })).toBe(201);
          created++;
        } else if (!controlOnly) {
          expect(reply.status, JSON.stringify({ body, problems })).toBe(400);
          refused++;
        }
      }),
      { numRuns: 120 },
    );
    // The generators reach both sides.
    expect(created).toBeGreaterThan(5);
    expect(refused).toBeGreaterThan(5);
  });
});
