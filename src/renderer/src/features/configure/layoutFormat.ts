/**
 * How the Layouts panel words a layout and a section: their type, why one cannot be deleted, and
 * where a deleted section's fields go. Pure. The rules are the service's (spec "Layouts and
 * sections": the default layout cannot be deleted, nor the last section of a layout; the
 * emulator's packages/emulator/src/api/layouts.ts moves a deleted section's fields to the end of
 * the section before it, or of the next one when it is the first).
 */
import type { ConfigLayout, ConfigSection } from '../../../../shared/ipc/areas/configure';

export function layoutTypeText(type: ConfigLayout['type']): string {
  if (type === 'public') return 'Public';
  if (type === 'private') return 'Private';
  return 'Type not known yet';
}

/** Why a layout cannot be deleted, in words; null when it can. */
export function layoutDeleteBlocked(
  layout: ConfigLayout,
  layouts: readonly ConfigLayout[],
): string | null {
  if (layout.isDefault) {
    return 'The default layout cannot be deleted: make another layout the default first.';
  }
  if (layouts.length <= 1) {
    return 'A module keeps at least one layout: this is its last one.';
  }
  return null;
}

/** Why a section cannot be deleted, in words; null when it can. */
export function sectionDeleteBlocked(sections: readonly ConfigSection[]): string | null {
  return sections.length <= 1
    ? 'A layout keeps at least one section: this is its last one. Deleting a section moves its fields to the section before it, and this one has none to go to.'
    : null;
}

/** What happens to a section's fields when it is deleted, in words. */
export function sectionDeleteNote(sections: readonly ConfigSection[], index: number): string {
  const section = sections[index];
  if (!section) return '';
  const count = section.fields.length;
  if (count === 0) return 'It has no fields.';
  const fields = count === 1 ? 'Its field moves' : `Its ${count} fields move`;
  const before = sections[index - 1];
  if (before) return `${fields} to the end of the section before it, ${before.name}.`;
  const after = sections[index + 1];
  return after
    ? `${fields} to the end of ${after.name}: it is the first section, so there is none before it.`
    : '';
}
