/**
 * A form's refusals placed where they belong: each beside the control of the argument it is about
 * (the contract schema's complaints in words, `issuesByField`, and the engine's refusal naming its
 * `field`), anything else beside the submit button; focus moves to the first after each submit.
 */
import { useEffect, type RefObject } from 'react';
import type { z } from 'zod';
import { issuesByField } from '../../../shared/ipc/issuesInWords';

export interface FormProblems {
  /** By argument key (`code`, `scopes`): what is wrong with that control's value. */
  fields: ReadonlyMap<string, string>;
  /** About the request as a whole, or an argument the form has no control for. */
  form: string | null;
}

export const NO_PROBLEMS: FormProblems = { fields: new Map(), form: null };

/**
 * The schema's complaints about what the form would send (pure); null when it fits. `controls`
 * are the argument keys the form shows a control for.
 */
export function problemsOfInput(
  schema: z.ZodType,
  input: unknown,
  controls: readonly string[],
): FormProblems | null {
  const parsed = schema.safeParse(input);
  if (parsed.success) return null;
  const fields = new Map<string, string>();
  const rest: string[] = [];
  for (const [field, words] of issuesByField(parsed.error, input)) {
    if (controls.includes(field)) fields.set(field, words.join(' '));
    else rest.push(...words);
  }
  return { fields, form: rest.length > 0 ? rest.join(' ') : null };
}

/** The engine's refusal (pure): beside its field's control when the form has one. */
export function problemsOfRefusal(
  refusal: { message: string; field: string | null },
  controls: readonly string[],
): FormProblems {
  return refusal.field !== null && controls.includes(refusal.field)
    ? { fields: new Map([[refusal.field, refusal.message]]), form: null }
    : { fields: new Map(), form: refusal.message };
}

/** The id of the message beside `field`'s control (or beside submit for `null`). */
export const problemId = (formId: string, field: string | null) =>
  `${formId}-${field ?? 'form'}-problem`;

/** What ties a control to its problem: marked invalid, described by the message. */
export function problemAttributes(problems: FormProblems, formId: string, field: string) {
  return problems.fields.has(field)
    ? { 'aria-invalid': true as const, 'aria-describedby': problemId(formId, field) }
    : {};
}

/** The message beside a control; nothing when it has none. */
export function FieldProblem({
  problems,
  formId,
  field,
}: {
  problems: FormProblems;
  formId: string;
  field: string;
}) {
  const text = problems.fields.get(field);
  if (!text) return null;
  return (
    <p id={problemId(formId, field)} className="field-error">
      {text}
    </p>
  );
}

/** The message beside the submit button: said at once, and focusable for the keyboard. */
export function FormProblem({ problems, formId }: { problems: FormProblems; formId: string }) {
  if (!problems.form) return null;
  return (
    <p
      id={problemId(formId, null)}
      className="field-error"
      role="alert"
      tabIndex={-1}
      data-form-problem
    >
      {problems.form}
    </p>
  );
}

/**
 * After each new set of problems, focus goes to the first refused control in screen order, or
 * else to the message beside the submit button.
 */
export function useFocusFirstProblem(
  problems: FormProblems,
  container: RefObject<HTMLElement | null>,
): void {
  useEffect(() => {
    if (problems.fields.size === 0 && !problems.form) return;
    const root = container.current;
    const target =
      root?.querySelector<HTMLElement>('[aria-invalid="true"]') ??
      root?.querySelector<HTMLElement>('[data-form-problem]');
    target?.focus();
  }, [problems, container]);
}
