import type { ReactNode, SelectHTMLAttributes } from 'react';

/** A labelled choice of one of `options` (a service profile, a data center) by its value. */
export function OptionSelect({
  label,
  value,
  options,
  onChange,
  ...described
}: {
  label: ReactNode;
  value: string;
  options: readonly { value: string; label: string }[];
  onChange(value: string): void;
} & Pick<SelectHTMLAttributes<HTMLSelectElement>, 'aria-invalid' | 'aria-describedby'>) {
  return (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value)} {...described}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}
