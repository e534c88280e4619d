/**
 * The rules a user field's people must meet before a change is queued (spec "Fields and options":
 * users `{zpuid}`, roles `{id}` of a user pick list or multi-user field), as the emulator checks
 * them (packages/emulator/src/api/options.ts): a user must be a member of the portal (here: among
 * the people the mirror knows of it), a role one the service offers, and neither listed twice on
 * the field; only what the field holds can be removed. Pure: the editor and the engine share it.
 */

export const PEOPLE_FIELD_TYPES: ReadonlySet<string> = new Set(['user_pick_list', 'multi_user']);

interface Named {
  id: string;
  name: string | null;
}

const label = (item: Named) => (item.name ? `${item.name} (${item.id})` : item.id);

/** Why `zpuid` may not be added to a field holding `held`, or null. */
export function userAddProblem(
  zpuid: string,
  members: readonly Named[],
  held: readonly { id: string }[],
): string | null {
  const member = members.find((candidate) => candidate.id === zpuid);
  if (!member) {
    return `User ${zpuid} is not a member of this portal (not among the people known here).`;
  }
  return held.some((user) => user.id === zpuid)
    ? `User: ${label(member)} is already one of this field's users.`
    : null;
}

/** Why role `id` may not be added to a field holding `held`, or null. */
export function roleAddProblem(
  id: string,
  offered: readonly Named[],
  held: readonly { id: string }[],
): string | null {
  const role = offered.find((candidate) => candidate.id === id);
  if (!role) {
    return offered.length === 0
      ? 'Roles: the portal’s roles are not known here yet; sync the portal online first.'
      : `Role ${id} is not one of the portal's roles (${offered.map(label).join(', ')}).`;
  }
  return held.some((held) => held.id === id)
    ? `Role: ${label(role)} is already one of this field's roles.`
    : null;
}

/** What is wrong with adding these users and roles at once (the first problem), or null. */
export function peopleAddProblem(
  add: { users: readonly string[]; roles: readonly string[] },
  context: {
    members: readonly Named[];
    offeredRoles: readonly Named[];
    users: readonly { id: string }[];
    roles: readonly { id: string }[];
  },
): string | null {
  const users = [...context.users];
  for (const zpuid of add.users) {
    const problem = userAddProblem(zpuid, context.members, users);
    if (problem) return problem;
    users.push({ id: zpuid });
  }
  const roles = [...context.roles];
  for (const id of add.roles) {
    const problem = roleAddProblem(id, context.offeredRoles, roles);
    if (problem) return problem;
    roles.push({ id });
  }
  return null;
}

/** Why these users and roles cannot be removed from the field, or null. */
export function peopleRemoveProblem(
  remove: { users: readonly string[]; roles: readonly string[] },
  held: { users: readonly { id: string }[]; roles: readonly { id: string }[] },
): string | null {
  const twice = (ids: readonly string[]) => ids.find((id, index) => ids.indexOf(id) !== index);
  const user = remove.users.find((id) => !held.users.some((u) => u.id === id));
  if (user !== undefined) return `User ${user} is not one of this field's users.`;
  const role = remove.roles.find((id) => !held.roles.some((r) => r.id === id));
  if (role !== undefined) return `Role ${role} is not one of this field's roles.`;
  const again = twice(remove.users) ?? twice(remove.roles);
  return again === undefined ? null : `${again} is listed twice.`;
}
