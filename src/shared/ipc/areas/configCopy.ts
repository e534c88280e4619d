/**
 * Copying configuration as a reviewable plan (issue 16, "Beyond the web console"): modules with
 * their layouts, sections, custom fields and options, taken from one portal (or from a JSON file
 * exported earlier) and planned against another portal: what will be created, changed or left
 * alone, matched by API name, with the calls it costs. Applying queues the plan in the outbox as
 * ordinary configuration changes; nothing here reaches the network.
 */
import { z } from 'zod';
import { request } from '../contractSpec';
import { ConfigModuleId } from './configure';

const PortalId = z.string().regex(/^\d{1,20}$/, 'a portal id (digits)');

/** The most a configuration file may weigh (bytes of its text): a whole portal's is far less. */
export const CONFIGURATION_FILE_MAX = 5_000_000;
/** The most modules one copy or export takes (the service's own per-portal module count is less). */
export const COPY_MODULES_MAX = 100;

/** Where a copy's configuration comes from: modules of a portal here, or a file's text. */
export const CopySource = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('portal'),
      portalId: PortalId,
      moduleIds: z.array(ConfigModuleId).min(1).max(COPY_MODULES_MAX),
    })
    .strict(),
  z
    .object({
      kind: z.literal('file'),
      /** The file's name, for the plan's heading only. */
      name: z.string().max(255),
      text: z.string().max(CONFIGURATION_FILE_MAX),
    })
    .strict(),
]);
export type CopySource = z.infer<typeof CopySource>;

export const PlanItemKind = z.enum(['module', 'layout', 'section', 'field', 'options', 'statuses']);
/** `blocked`: it cannot be copied as it stands (the detail says why and what to do). */
export const PlanItemAction = z.enum(['create', 'change', 'alone', 'blocked']);
export type PlanItemAction = z.infer<typeof PlanItemAction>;

export const PlanItem = z.object({
  /** Stable within a plan: `module:assets`, `field:assets/cost`, ... */
  key: z.string(),
  /** The module it belongs to (its plural name). */
  module: z.string(),
  kind: PlanItemKind,
  action: PlanItemAction,
  /** One line: "Create field “Cost” (currency) in Standard › Details". */
  summary: z.string(),
  /** Why it is left alone or blocked, or what else to know; null when the summary says it all. */
  detail: z.string().nullable(),
  /** For a change: each setting, as the target has it and as it will be. */
  changes: z.array(z.object({ setting: z.string(), from: z.string(), to: z.string() })),
  /** Calls its replay costs (0 for what is left alone or blocked). */
  calls: z.number().int().nonnegative(),
});
export type PlanItem = z.infer<typeof PlanItem>;

export const CopyPlan = z.object({
  targetPortalId: z.string(),
  targetPortal: z.string(),
  /** "Demo Portal: Assets, Vendors" or "assets.json, exported from Demo Portal on …". */
  source: z.string(),
  items: z.array(PlanItem),
  counts: z.object({
    create: z.number().int().nonnegative(),
    change: z.number().int().nonnegative(),
    alone: z.number().int().nonnegative(),
    blocked: z.number().int().nonnegative(),
  }),
  /** Calls by endpoint (method and path template), as the service's rate limit counts them. */
  calls: z.array(z.object({ endpoint: z.string(), calls: z.number().int().positive() })),
  totalCalls: z.number().int().nonnegative(),
  /** At the service's limit per endpoint (200 calls per 2 minutes), the least time it takes. */
  minimumMinutes: z.number().nonnegative(),
  /** What was reviewed: applying refuses when the plan made again differs. */
  fingerprint: z.string(),
});
export type CopyPlan = z.infer<typeof CopyPlan>;

export const configCopyRequests = {
  'configure.exportConfiguration': request(
    z
      .object({
        portalId: PortalId,
        moduleIds: z.array(ConfigModuleId).min(1).max(COPY_MODULES_MAX),
      })
      .strict(),
    z.object({
      fileName: z.string(),
      /** The configuration file (JSON, see src/main/configure/copy/configurationSchema.ts). */
      text: z.string(),
      modules: z.number().int().nonnegative(),
      layouts: z.number().int().nonnegative(),
      fields: z.number().int().nonnegative(),
    }),
    "Some modules' configuration (settings, layouts, sections, custom fields, options) as a JSON file's text.",
  ),
  'configure.planCopy': request(
    z.object({ targetPortalId: PortalId, source: CopySource }).strict(),
    CopyPlan,
    'What copying a configuration into a portal would create, change or leave alone, and its calls.',
  ),
  'configure.applyCopy': request(
    z
      .object({
        targetPortalId: PortalId,
        source: CopySource,
        /** The reviewed plan's fingerprint. */
        fingerprint: z.string().max(200),
      })
      .strict(),
    z.object({ queued: z.number().int().nonnegative(), plan: CopyPlan }),
    'Queue a reviewed plan in the outbox, all of it or nothing; refused when the plan has changed.',
  ),
} as const;
