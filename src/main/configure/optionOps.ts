/**
 * A pick list's or multi-select's options as outbox operations (pure): one operation per kind of
 * change (the spec's bulk bodies: POST to add, PATCH to rename or move, DELETE to remove), in the
 * module's settings queue (`layouts:<module id>`), so a field created offline gets its options
 * after it exists. An option added here has a temporary id (`tmp-o-…`) until the add answers;
 * later operations naming it are then rewritten. Parameters in `fields` by name.
 */
import type {
  ConfigOption,
  OptionAction,
  PendingOptionChange,
} from '../../shared/ipc/areas/configure';
import type { OpFields, OutboxOp } from '../outbox/outboxTypes';
import { applyOptionChange } from '../outbox/catalogOverlay';
import { param } from './layoutOps';

export const TEMP_OPTION_PREFIX = 'tmp-o-';
export const optionOpAction = (action: OptionAction) => `option.${action}`;

export function optionActionOf(op: Pick<OutboxOp, 'kind' | 'action'>): OptionAction | null {
  if (op.kind !== 'config' || !op.action?.startsWith('option.')) return null;
  return op.action.slice('option.'.length) as OptionAction;
}

/** An option as an operation names it: its id (temporary while added here) and its name. */
export interface NamedOption {
  id: string;
  name: string;
}

export const optionsOf = (op: Pick<OutboxOp, 'fields'>) =>
  param<NamedOption[]>(op, 'options') ?? [];

const quote = (s: unknown) => `“${String(s)}”`;

export function optionSummary(op: Pick<OutboxOp, 'kind' | 'action' | 'fields'>): string {
  const options = optionsOf(op);
  const names = options.map((option) => quote(option.name)).join(', ');
  switch (optionActionOf(op)) {
    case 'addOptions':
      return `Add ${options.length === 1 ? 'option' : 'options'} ${names}`;
    case 'renameOptions':
      return options
        .map(
          (option) =>
            `Rename ${quote(param<Record<string, string>>(op, 'was')?.[option.id] ?? option.id)} to ${quote(option.name)}`,
        )
        .join('; ');
    case 'moveOption':
      return `Move ${names} to place ${String(param(op, 'position'))}`;
    case 'removeOptions':
      return `Remove ${options.length === 1 ? 'option' : 'options'} ${names}`;
    default:
      return op.action ?? 'Options change';
  }
}

/**
 * Why a rename or removal whose answer was lost (sent, and the service may have applied it) is
 * not discarded yet, or null when it may be. Discarded, it put the record changes queued here
 * back to the option's old name, or their bases back to a removed option, which the service may
 * no longer have: each was then refused, or met the removal as someone else's change. The replay
 * asks the service before it sends again (its fate is known once delivered or refused), so the
 * discard waits for that, as one being sent waits for its answer. Pure.
 */
export function lostAnswerDiscardProblem(
  op: Pick<OutboxOp, 'kind' | 'action' | 'fields' | 'sentBody'>,
): string | null {
  if (op.sentBody === null) return null;
  const action = optionActionOf(op);
  const what = optionSummary(op);
  const after =
    'Nothing was discarded; go online (or choose Retry) so the Outbox asks the service what it has, then discard it if it is still here.';
  if (action === 'renameOptions') {
    const was = param<Record<string, string>>(op, 'was') ?? {};
    const names = optionsOf(op)
      .map((option) => `${quote(was[option.id] ?? option.id)} to ${quote(option.name)}`)
      .join(', ');
    return `${what}: it was sent and its answer was lost, so the service may already have renamed ${names}. Discarded now, the Configure view and the record changes waiting in the Outbox would go back to a name the service may no longer have, and those changes be refused. ${after}`;
  }
  if (action === 'removeOptions') {
    const names = optionsOf(op)
      .map((option) => quote(option.name))
      .join(', ');
    return `${what}: it was sent and its answer was lost, so the service may already have removed ${names}. Discarded now, the Configure view and the record changes waiting in the Outbox would hold an option the service may no longer have, and those changes be refused or held as conflicts. ${after}`;
  }
  return null;
}

/** The body of the operation's call (`module` as the service names the module). */
export function optionBody(op: Pick<OutboxOp, 'kind' | 'action' | 'fields'>, module: string) {
  const field = String(param(op, 'field_id'));
  const options = optionsOf(op);
  switch (optionActionOf(op)) {
    case 'addOptions':
      return { module, field, custom_options: options.map((option) => ({ value: option.name })) };
    case 'renameOptions':
      return {
        module,
        field,
        custom_options: options.map((option) => ({ id: option.id, value: option.name })),
      };
    case 'moveOption':
      return {
        module,
        field,
        custom_options: options.map((option) => ({ id: option.id })),
        position: { exact_position: param<number>(op, 'position') },
      };
    default:
      return { module, field, custom_options: options.map((option) => ({ id: option.id })) };
  }
}

export function optionRequest(
  op: Pick<OutboxOp, 'kind' | 'action' | 'fields' | 'portalId'>,
  moduleApiName: string | null,
): { method: string; path: string; body: unknown } {
  const method =
    optionActionOf(op) === 'addOptions'
      ? 'POST'
      : optionActionOf(op) === 'removeOptions'
        ? 'DELETE'
        : 'PATCH';
  return {
    method,
    path: `/api/v3/portal/${op.portalId}/settings/options`,
    body: optionBody(op, moduleApiName ?? '(its API name, once created)'),
  };
}

/**
 * A field's options as the Configure view shows them: the mirror's with queued changes applied
 * (applyOptionChange, which the record editor's overlay uses too), each option showing the
 * changes that name it.
 */
export function overlayOptions(
  mirrored: readonly ConfigOption[],
  ops: readonly OutboxOp[],
): ConfigOption[] {
  const options = mirrored.map((option) => ({ ...option, pending: [...option.pending] }));
  for (const op of ops) {
    const action = optionActionOf(op);
    if (action === null) continue;
    const pending: PendingOptionChange = {
      opId: op.seq,
      action,
      summary: optionSummary(op),
      state: op.state,
      error: op.error,
    };
    const named = new Set(optionsOf(op).map((option) => option.id));
    for (const option of options) if (named.has(option.id)) option.pending.push(pending);
    applyOptionChange(options, op, (option) => ({
      ...option,
      records: 0,
      localOnly: true,
      pending: [pending],
    }));
  }
  return options;
}

/** What a rename's discard leaves of the field's option changes queued after it. */
export interface RenameDiscard {
  /** Later operations rewritten (their new fields), or dropped with nothing left to do (null). */
  rewrites: { seq: number; fields: OpFields | null }[];
  /**
   * The queued record changes' relabel: the discarded names → the names the service keeps, for
   * the options no later rename or removal names (those end under the later change's name).
   */
  relabel: Map<string, string>;
}

/**
 * A rename discarded while later changes of the same options are queued (`later`: the field's
 * operations queued after it, in queue order). The service keeps the name the rename started
 * from, so the chain is made whole again (pure): a later rename renames from that name (its
 * `was`, which the replay checks against the service and relabels the mirror from), and drops
 * an option it now renames to the very name kept; a later move or removal names the option by
 * it. Without this a later rename said it renamed a name the service never had, and was refused.
 */
export function planRenameDiscard(discarded: OutboxOp, later: readonly OutboxOp[]): RenameDiscard {
  const was = param<Record<string, string>>(discarded, 'was') ?? {};
  // Option id → the name the service keeps, while no later rename or removal has named it.
  const kept = new Map<string, string>();
  for (const option of optionsOf(discarded)) {
    const before = was[option.id];
    if (before !== undefined) kept.set(option.id, before);
  }
  const relabelFrom = new Map(optionsOf(discarded).map((option) => [option.id, option.name]));
  const rewrites: RenameDiscard['rewrites'] = [];
  for (const op of later) {
    const action = optionActionOf(op);
    if (action === null || action === 'addOptions') continue;
    const named = optionsOf(op);
    if (!named.some((option) => kept.has(option.id))) continue;
    if (action === 'renameOptions') {
      const opWas = { ...(param<Record<string, string>>(op, 'was') ?? {}) };
      const options: NamedOption[] = [];
      for (const option of named) {
        const name = kept.get(option.id);
        if (name === undefined) {
          options.push(option);
          continue;
        }
        kept.delete(option.id);
        if (option.name === name) delete opWas[option.id];
        else {
          opWas[option.id] = name;
          options.push(option);
        }
      }
      rewrites.push({
        seq: op.seq,
        fields:
          options.length === 0
            ? null
            : {
                ...op.fields,
                options: { value: options, base: null },
                was: { value: opWas, base: null },
              },
      });
      continue;
    }
    const options = named.map((option) => {
      const name = kept.get(option.id);
      return name === undefined ? option : { ...option, name };
    });
    // After a removal nothing names the option again.
    if (action === 'removeOptions') for (const option of named) kept.delete(option.id);
    rewrites.push({
      seq: op.seq,
      fields: { ...op.fields, options: { value: options, base: null } },
    });
  }
  const relabel = new Map<string, string>();
  for (const [id, name] of kept) relabel.set(relabelFrom.get(id)!, name);
  return { rewrites, relabel };
}

/**
 * The first of a field's queued option changes that the service would refuse for a name two
 * options then share (case-insensitively, as the service), laid over the options as the mirror
 * has them one change after the other as the service takes them; null when none. Pure.
 */
export function optionQueueClash(
  mirrored: readonly ConfigOption[],
  ops: readonly OutboxOp[],
): { op: OutboxOp; name: string } | null {
  for (let i = 0; i < ops.length; i++) {
    const seen = new Set<string>();
    for (const option of overlayOptions(mirrored, ops.slice(0, i + 1))) {
      const key = option.name.trim().toLowerCase();
      if (seen.has(key)) return { op: ops[i]!, name: option.name };
      seen.add(key);
    }
  }
  return null;
}
