/** A progress bar with its percentage for assistive technology; null draws it indeterminate. */
export function ProgressBar({ percent, label }: { percent: number | null; label: string }) {
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      {...(percent === null ? {} : { 'aria-valuenow': percent })}
    >
      <div
        className={`progress__fill${percent === null ? ' is-indeterminate' : ''}`}
        style={{ width: `${percent ?? 100}%` }}
      />
    </div>
  );
}
