import { SectionIcon, type IconName } from './Icon';

export interface EmptyStateProps {
  section: IconName;
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
