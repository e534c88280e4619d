/**
 * Ours: the portal roles a user field can be limited to (`userlist_type: selected_roles`). The
 * spec shows roles only as `{id}`; every emulated portal has these five.
 */
export const PORTAL_ROLES = [
  { id: '1', name: 'Administrator' },
  { id: '2', name: 'Manager' },
  { id: '3', name: 'Employee' },
  { id: '4', name: 'Contractor' },
  { id: '5', name: 'Client' },
] as const;

export function roleName(id: string): string | undefined {
  return PORTAL_ROLES.find((role) => role.id === id)?.name;
}
