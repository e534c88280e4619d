import type { ArchiveDiff } from '../../../../shared/ipc/areas/backups';

const count = (n: number) => n.toLocaleString();

/** What differs between a backup and the mirror now: a line per module, changes by field. */
export function BackupDiff({ diff }: { diff: ArchiveDiff }) {
  const changedModules = diff.modules.filter((m) => m.added + m.removed + m.changed > 0);
  return (
    <div className="backup-diff" aria-label="Differences from the mirror" role="region">
      <p className="hint">
        Compared {new Date(diff.comparedAt).toLocaleString()} with the mirror as it is now
        {diff.generatedAt
          ? `; the backup was made ${new Date(diff.generatedAt).toLocaleString()}`
          : ''}
        .{changedModules.length === 0 ? ' Nothing differs.' : ''}
      </p>
      <table className="data-table backup-diff__table">
        <thead>
          <tr>
            <th scope="col">Module</th>
            <th scope="col" className="num">
              In the backup
            </th>
            <th scope="col" className="num">
              In the mirror
            </th>
            <th scope="col" className="num">
              Added since
            </th>
            <th scope="col" className="num">
              Gone since
            </th>
            <th scope="col" className="num">
              Changed
            </th>
            <th scope="col">Changed fields</th>
          </tr>
        </thead>
        <tbody>
          {diff.modules.map((module) => (
            <tr key={module.module}>
              <th scope="row">{module.label}</th>
              <td className="num">{count(module.archived)}</td>
              <td className="num">{count(module.mirrored)}</td>
              <td className="num">{count(module.added)}</td>
              <td className="num">{count(module.removed)}</td>
              <td className="num">{count(module.changed)}</td>
              <td>
                {module.fields.length === 0
                  ? '–'
                  : module.fields.map((f) => `${f.field} (${count(f.records)})`).join(', ')}
                {module.examples.length > 0 && (
                  <details>
                    <summary>Examples</summary>
                    <ul>
                      {module.examples.map((example) => (
                        <li key={`${example.change}-${example.id}`}>
                          {example.change === 'added'
                            ? 'Added'
                            : example.change === 'removed'
                              ? 'Gone'
                              : 'Changed'}
                          : {example.name} <span className="muted mono">#{example.id}</span>
                          {example.fields.length > 0 ? ` (${example.fields.join(', ')})` : ''}
                        </li>
                      ))}
                    </ul>
                  </details>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
