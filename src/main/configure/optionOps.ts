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
import type { OutboxOp } from '../outbox/outboxTypes';
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

/** A field's options as the Configure view shows them: the mirror's with queued changes applied. */
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
    const named = optionsOf(op);
    if (action === 'addOptions') {
      for (const option of named) {
        options.push({ ...option, records: 0, localOnly: true, pending: [pending] });
      }
      continue;
    }
    for (const option of named) {
      const index = options.findIndex((candidate) => candidate.id === option.id);
      if (index === -1) continue;
      const shown = options[index]!;
      shown.pending.push(pending);
      if (action === 'renameOptions') shown.name = option.name;
      else if (action === 'removeOptions') options.splice(index, 1);
      else if (action === 'moveOption') {
        options.splice(index, 1);
        const position = param<number>(op, 'position') ?? options.length + 1;
        options.splice(Math.min(position - 1, options.length), 0, shown);
      }
    }
  }
  return options;
}
