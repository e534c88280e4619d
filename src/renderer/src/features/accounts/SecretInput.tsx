import type { InputHTMLAttributes } from 'react';

/** A client secret typed in: hidden, and never offered to or kept by the browser's autofill. */
export function SecretInput({
  value,
  onChange,
  required = false,
  ...described
}: {
  value: string;
  onChange(value: string): void;
  required?: boolean;
} & Pick<InputHTMLAttributes<HTMLInputElement>, 'aria-invalid' | 'aria-describedby'>) {
  return (
    <input
      type="password"
      autoComplete="off"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      required={required}
      {...described}
    />
  );
}
