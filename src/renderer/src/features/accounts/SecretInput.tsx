/** A client secret typed in: hidden, and never offered to or kept by the browser's autofill. */
export function SecretInput({
  value,
  onChange,
  required = false,
}: {
  value: string;
  onChange(value: string): void;
  required?: boolean;
}) {
  return (
    <input
      type="password"
      autoComplete="off"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      required={required}
    />
  );
}
