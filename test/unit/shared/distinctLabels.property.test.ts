/**
 * distinctLabels: for any fields (unique keys, any labels, labels that read like "X (key)" or
 * "X #2" among them), no two labels shown look alike, and a label no other field shares is shown
 * as it is.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { distinctLabels } from '../../../src/shared/recordValues/distinctLabels';

const seen = (label: string) => label.trim().toLocaleLowerCase('en');

const piece = fc.constantFrom('P', 'p', ' ', '(', ')', '#', '1', '2', 'cf_a', 'CF_A', 'k');
const text = fc.array(piece, { maxLength: 5 }).map((parts) => parts.join(''));

describe('distinctLabels', () => {
  it('shows no two fields alike, and a label of its own unchanged', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ key: text, label: text }), {
          selector: (f) => f.key,
          maxLength: 8,
        }),
        (fields) => {
          const shown = distinctLabels(
            fields,
            (f) => f.key,
            (f) => f.label,
          );
          const labels = fields.map((f) => shown.get(f.key)!);
          expect(new Set(labels.map(seen)).size).toBe(fields.length);
          // Unchanged unless another field shares it, or another's label with its key reads so.
          for (const field of fields) {
            const others = fields.filter((f) => f !== field);
            const alike = others.some(
              (f) =>
                seen(f.label) === seen(field.label) ||
                seen(`${f.label.trim()} (${f.key})`) === seen(field.label),
            );
            if (!alike) expect(shown.get(field.key)).toBe(field.label);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('names the key of fields sharing a label', () => {
    const shown = distinctLabels(
      [
        { key: 'cf_priority', label: 'Priority' },
        { key: 'cf_priority_2', label: 'priority ' },
        { key: 'cf_area', label: 'Area' },
      ],
      (f) => f.key,
      (f) => f.label,
    );
    expect([...shown.values()]).toEqual([
      'Priority (cf_priority)',
      'priority (cf_priority_2)',
      'Area',
    ]);
  });
});
