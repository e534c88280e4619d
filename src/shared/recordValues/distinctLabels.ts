/**
 * Labels that tell fields apart where a user picks one by its label (the import's column mapping,
 * the bulk edit's field, the filter's field, the columns shown). The service lets two custom
 * fields carry one label; two identical choices would leave the user guessing which field a
 * column fills. A label no other field carries stays as it is; one shared (trimmed, in any case)
 * gets the field's key after it, "Priority (cf_priority_2)". Pure.
 */

/** How two labels look alike to a reader. */
function seen(label: string): string {
  return label.trim().toLocaleLowerCase('en');
}

/** Each item's key → the label to show, no two alike. */
export function distinctLabels<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  labelOf: (item: T) => string,
): Map<string, string> {
  const shown = items.map((item) => labelOf(item));
  // The key told apart what the label did not; a label that itself reads like "X (key)" may still
  // meet another's, so whatever still looks alike gets its place in the list too.
  const steps: ((i: number) => string)[] = [
    (i) => `${shown[i]!.trim()} (${keyOf(items[i]!)})`,
    (i) => `${shown[i]!.trim()} #${i + 1}`,
  ];
  for (const step of steps) {
    const alike = lookAlike(shown);
    if (alike.length === 0) break;
    for (const i of alike) shown[i] = step(i);
  }
  return new Map(items.map((item, i) => [keyOf(item), shown[i]!]));
}

/** The places of labels that look like another's. */
function lookAlike(labels: readonly string[]): number[] {
  const count = new Map<string, number>();
  for (const label of labels) count.set(seen(label), (count.get(seen(label)) ?? 0) + 1);
  return labels.flatMap((label, i) => ((count.get(seen(label)) ?? 0) > 1 ? [i] : []));
}
