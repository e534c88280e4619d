/** A list row's status, changed in place (rules and targets: active, inactive, ...). */
export function StatusSelect<Status extends string>({
  name,
  value,
  statuses,
  onChange,
}: {
  /** The row's name, for the select's accessible name "Status of <name>". */
  name: string;
  value: Status;
  statuses: readonly Status[];
  onChange: (status: Status) => void;
}) {
  return (
    <select
      aria-label={`Status of ${name}`}
      value={value}
      onChange={(e) => onChange(e.target.value as Status)}
    >
      {statuses.map((s) => (
        <option key={s}>{s}</option>
      ))}
    </select>
  );
}
