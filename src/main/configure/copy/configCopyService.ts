/**
 * The `configure.exportConfiguration`, `configure.planCopy` and `configure.applyCopy` requests:
 * a configuration read from a portal here or from a file, planned against a target portal's
 * configuration as it will be (copyPlan.ts), and a reviewed plan queued (applyCopyPlan.ts). The
 * plan is made again when applied: if the target or the source changed since it was reviewed,
 * its fingerprint differs and nothing is queued.
 */
import { createHash } from 'node:crypto';
import type { CopyPlan, CopySource } from '../../../shared/ipc/areas/configCopy';
import { SPEC_RATE_LIMIT } from '../../api/rateBudget';
import type { OutboxRepository } from '../../outbox/outboxRepository';
import type { Mirror } from '../../store/mirror/mirror';
import { ConfigRefused, type ConfigureService } from '../configureService';
import { applyCopyPlan } from './applyCopyPlan';
import type { DocumentModule } from './configurationDocument';
import { callsByEndpoint, minimumMinutes, planCopy, type PlannedItem } from './copyPlan';
import {
  configurationDocument,
  configurationFileName,
  copyableModules,
  documentModule,
} from './exportConfiguration';
import { readPortalConfiguration } from './portalConfiguration';
import { readConfigurationDocument } from './readConfigurationDocument';

export interface ConfigCopyServiceOptions {
  configure: ConfigureService;
  mirror: Mirror;
  repo: Pick<OutboxRepository, 'transaction' | 'configOps'>;
  now?: () => Date;
}

export class ConfigCopyService {
  constructor(private readonly options: ConfigCopyServiceOptions) {}

  private portalName(portalId: string): string {
    const portal = this.options.mirror.metadata.portal(portalId);
    if (!portal) {
      throw new ConfigRefused(
        `Portal ${portalId} is not in the local mirror. Choose another portal, or sync this one first.`,
      );
    }
    return portal.name;
  }

  exportConfiguration(portalId: string, moduleIds: readonly string[]) {
    const name = this.portalName(portalId);
    const modules = copyableModules(this.options.configure, portalId, moduleIds);
    const document = configurationDocument(
      { id: portalId, name },
      modules,
      this.options.now?.() ?? new Date(),
    );
    return {
      fileName: configurationFileName(name, modules),
      text: `${JSON.stringify(document, null, 2)}\n`,
      modules: modules.length,
      layouts: modules.reduce((sum, module) => sum + module.layouts.length, 0),
      fields: modules.reduce((sum, module) => sum + module.fields.length, 0),
    };
  }

  private sourceModules(
    targetPortalId: string,
    source: CopySource,
  ): { modules: DocumentModule[]; label: string } {
    if (source.kind === 'file') {
      const document = readConfigurationDocument(source.text, source.name || 'The file');
      const day = document.exportedAt.slice(0, 10);
      return {
        modules: document.modules,
        label: `${source.name || 'A file'}, exported from ${document.source.portalName || `portal ${document.source.portalId}`} on ${day}`,
      };
    }
    if (source.portalId === targetPortalId) {
      throw new ConfigRefused(
        'The source and the target are the same portal; choose another portal to copy into.',
      );
    }
    const name = this.portalName(source.portalId);
    const modules = copyableModules(this.options.configure, source.portalId, source.moduleIds);
    return {
      modules: modules.map(documentModule),
      label: `${name}: ${modules.map((module) => module.pluralName).join(', ')}`,
    };
  }

  private make(
    targetPortalId: string,
    source: CopySource,
  ): { plan: CopyPlan; items: PlannedItem[] } {
    const targetPortal = this.portalName(targetPortalId);
    const { modules, label } = this.sourceModules(targetPortalId, source);
    const target = readPortalConfiguration(this.options.configure, targetPortalId);
    const items = planCopy(modules, target);
    const calls = callsByEndpoint(items);
    const counts = { create: 0, change: 0, alone: 0, blocked: 0 };
    for (const planned of items) counts[planned.action] += 1;
    const fingerprint = createHash('sha256')
      .update(JSON.stringify({ targetPortalId, items }))
      .digest('hex');
    return {
      items,
      plan: {
        targetPortalId,
        targetPortal,
        source: label,
        items: items.map(({ steps: _steps, ...shown }) => shown),
        counts,
        calls,
        totalCalls: calls.reduce((sum, entry) => sum + entry.calls, 0),
        minimumMinutes: minimumMinutes(calls, SPEC_RATE_LIMIT),
        fingerprint,
      },
    };
  }

  plan(targetPortalId: string, source: CopySource): CopyPlan {
    return this.make(targetPortalId, source).plan;
  }

  apply(targetPortalId: string, source: CopySource, fingerprint: string) {
    const { plan, items } = this.make(targetPortalId, source);
    if (plan.fingerprint !== fingerprint) {
      throw new ConfigRefused(
        'The plan changed since it was made (the target or the source changed meanwhile). Review the new plan, then queue it. Nothing was queued.',
      );
    }
    if (plan.counts.create + plan.counts.change === 0) {
      throw new ConfigRefused('The plan has nothing to create or change. Nothing was queued.');
    }
    const queued = applyCopyPlan(this.options.configure, this.options.repo, targetPortalId, items);
    return { queued, plan: this.plan(targetPortalId, source) };
  }
}
