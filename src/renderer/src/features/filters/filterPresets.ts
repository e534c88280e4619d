/**
 * One-click criteria for the filter builder: the status presets (all open, all closed) and date
 * presets on the record's own dates and each date field of the module. Each is an ordinary
 * criterion of the API's language, so it can be edited, combined and saved like any other. Pure.
 */
import type { FilterField } from '@portaldesk/portal-api/filter';
import type { DraftCriterion } from './filterDraft';

export interface FilterPreset {
  label: string;
  criterion: DraftCriterion;
}

/** Date presets offered in the menu (all of DATE_PRESETS stay available as conditions). */
const DATE_PRESET_MENU = [
  ['today', 'today'],
  ['this_week', 'this week'],
  ['last_week', 'last week'],
  ['this_month', 'this month'],
  ['overdue', 'overdue'],
  ['next_7_days', 'in the next 7 days'],
] as const;

export function filterPresets(fields: readonly FilterField[]): FilterPreset[] {
  const presets: FilterPreset[] = [];
  if (fields.some((f) => f.kind === 'status')) {
    const status = fields.find((f) => f.kind === 'status') as FilterField;
    presets.push(
      {
        label: `${status.label ?? status.name} is open`,
        criterion: { field: status.name, condition: 'all_open', values: [] },
      },
      {
        label: `${status.label ?? status.name} is closed`,
        criterion: { field: status.name, condition: 'all_closed', values: [] },
      },
    );
  }
  for (const field of fields) {
    if (field.kind !== 'date' && field.kind !== 'datetime') continue;
    for (const [condition, words] of DATE_PRESET_MENU) {
      // "Created overdue" means nothing: overdue and future presets only for the module's own dates.
      if (field.name === 'created_time' || field.name === 'last_updated_time') {
        if (condition === 'overdue' || condition === 'next_7_days') continue;
      }
      presets.push({
        label: `${field.label ?? field.name} ${words}`,
        criterion: { field: field.name, condition, values: [] },
      });
    }
  }
  return presets;
}
