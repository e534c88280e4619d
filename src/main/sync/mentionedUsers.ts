import type { Comment } from '@portaldesk/portal-api/domain/comment';
import type { Entity } from '@portaldesk/portal-api/domain/entity';
import type { FieldOptions } from '@portaldesk/portal-api/domain/fieldOption';
import type { PortalOwner } from '@portaldesk/portal-api/domain/portal';
import type { MirrorUser } from '../store/mirror/mirrorTypes';

/**
 * People the API mentions, gathered for the mirror's portal_users: the API has no user list, so
 * they come from portal owners, record owners, user fields ({zpuid, name} and arrays of them),
 * comment authors and the users a user field may pick. A fact one source gives is not erased by
 * another that leaves it out (the mirror's upsert keeps stored facts for null ones).
 */
export class MentionedUsers {
  private readonly byZpuid = new Map<string, MirrorUser>();

  add(zpuid: string, name?: string | null, email?: string | null): void {
    if (zpuid === '') return;
    const known = this.byZpuid.get(zpuid);
    this.byZpuid.set(zpuid, {
      zpuid,
      name: name ?? known?.name ?? null,
      email: email ?? known?.email ?? null,
    });
  }

  addPortalOwner(owner: PortalOwner | null): void {
    if (!owner) return;
    const name =
      owner.full_name ??
      owner.name ??
      ([owner.first_name, owner.last_name].filter(Boolean).join(' ') || null);
    this.add(owner.zpuid, name, owner.email);
  }

  /** The owner and every custom value shaped as a user or a list of users. */
  addRecords(entities: readonly Entity[]): void {
    for (const entity of entities) {
      if (entity.owner) this.add(entity.owner.zpuid, entity.owner.name, entity.owner.email);
      for (const value of Object.values(entity.custom)) {
        if (Array.isArray(value)) for (const item of value) this.addUserValue(item);
        else this.addUserValue(value);
      }
    }
  }

  addComments(comments: readonly Comment[]): void {
    for (const comment of comments) {
      const by = comment.created_by;
      if (by) this.add(by.zpuid, by.name, by.email);
    }
  }

  addOptions(options: FieldOptions): void {
    for (const user of options.users) this.add(user.zpuid, user.name, user.email);
  }

  list(): MirrorUser[] {
    return [...this.byZpuid.values()];
  }

  /** `{zpuid, name}` as custom user fields show it (zpuid a string or a whole number). */
  private addUserValue(value: unknown): void {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    const { zpuid, name, email } = value as Record<string, unknown>;
    const id = typeof zpuid === 'string' ? zpuid : typeof zpuid === 'number' ? String(zpuid) : null;
    if (id === null) return;
    this.add(id, typeof name === 'string' ? name : null, typeof email === 'string' ? email : null);
  }
}
