import type { Entity } from '@portaldesk/portal-api/domain/entity';
import type { MirrorRecord } from '../store/mirror/mirrorTypes';

/**
 * A record for the mirror. `created_time` may be missing (only last_updated_time is required of
 * a record); the record then counts as created when it was last changed.
 */
export function mapRecord(portalId: string, moduleId: string, entity: Entity): MirrorRecord {
  return {
    portalId,
    moduleId,
    id: entity.id,
    name: entity.name,
    description: entity.description,
    statusId: entity.status.id,
    layoutId: entity.layout.id,
    projectId: entity.project?.id ?? null,
    projectName: entity.project?.name ?? null,
    ownerZpuid: entity.owner?.zpuid ?? null,
    isClosed: entity.is_closed,
    isExternal: entity.is_external,
    createdTime: entity.created_time ?? entity.last_updated_time,
    lastUpdatedTime: entity.last_updated_time,
    trashedTime: entity.trashed_time,
    custom: entity.custom,
  };
}
