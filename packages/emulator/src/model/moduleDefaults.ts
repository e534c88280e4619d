/** What every custom module has, whether seeded or created through the API. */
/** System fields (is_default = 1) every record has; they cannot be deleted or removed from layouts. */
export const SYSTEM_FIELDS = [
  { apiName: 'name', label: 'Name', type: 'single_line', dataType: 'string', mandatory: 1 },
  {
    apiName: 'description',
    label: 'Description',
    type: 'multi_line',
    dataType: 'text',
    mandatory: 0,
  },
  { apiName: 'status', label: 'Status', type: 'status', dataType: 'status', mandatory: 1 },
  { apiName: 'owner', label: 'Owner', type: 'user_pick_list', dataType: 'user', mandatory: 1 },
  { apiName: 'project', label: 'Project', type: 'project', dataType: 'lookup', mandatory: 0 },
] as const;

/** Sections of a new layout; the system fields go in the first. */
export const DEFAULT_SECTION_NAMES = ['Overview', 'Details', 'Tracking'] as const;
export const DEFAULT_LAYOUT_NAME = 'Standard';
