import type { SectionId } from './sections';
import { SectionIcon } from './Icon';

export interface EmptyStateProps {
  section: SectionId;
  title: string;
  body: string;
  next: string;
}

export function EmptyState({ section, title, body, next }: EmptyStateProps) {
  return (
    <div className="empty-state" role="status">
      <div className="empty-state__icon">
        <SectionIcon id={section} />
      </div>
      <h2>{title}</h2>
      <p>{body}</p>
      <p className="empty-state__next">{next}</p>
    </div>
  );
}
