import { optionNameProblem } from '../../../../shared/configRules/optionRules';

/** One typed line of the "add options" box that the shared rules refuse. */
export interface OptionLineProblem {
  /** 1-based, as the user counts the box's lines (blank ones included). */
  line: number;
  problem: string;
}

export interface OptionLines {
  /** The names to add, trimmed, in the order typed; blank lines left out. */
  names: string[];
  problems: OptionLineProblem[];
  /** The field would hold more than it may (the box as a whole, not a line). */
  overMax: string | null;
}

/**
 * Reads the "add options" box: one name per line, blank lines ignored. Each line is checked
 * against the field's options and the lines above it (so the second of two equal lines is the
 * one refused), and the total against the field's most (`max`, from the engine's answer).
 */
export function readOptionLines(
  text: string,
  existing: readonly { id: string; name: string }[],
  max: number,
): OptionLines {
  const names: string[] = [];
  const problems: OptionLineProblem[] = [];
  const seen: { id: string; name: string }[] = [...existing];
  text.split(/\r?\n/).forEach((raw, index) => {
    const name = raw.trim();
    if (name === '') return;
    const problem = optionNameProblem(name, seen);
    if (problem) problems.push({ line: index + 1, problem });
    seen.push({ id: `line-${index + 1}`, name });
    names.push(name);
  });
  const total = existing.length + names.length;
  const overMax =
    total > max
      ? `The field holds at most ${max} options: ${existing.length} now, ${names.length} typed (${total - max} too many).`
      : null;
  return { names, problems, overMax };
}
