/**
 * An import's steps through the contract, as the renderer takes them (the handler tests share them).
 */
import type { recordsWorkspace } from '../records/workspace';
import { MODULE, PORTAL } from '../records/workspace';

type Workspace = ReturnType<typeof recordsWorkspace>;

/** `text` uploaded in three pieces, as a larger file travels, and opened in the workspace's module. */
export async function openFile(w: Workspace, fileName: string, text: string) {
  const bytes = Buffer.from(text, 'utf8');
  // Three pieces, as a larger file would travel.
  const third = Math.ceil(bytes.length / 3);
  let uploadId: string | undefined;
  for (let i = 0; i < 3; i++) {
    const answer = await w.ok('records.importUpload', {
      ...(uploadId ? { uploadId } : {}),
      fileName,
      offset: i * third,
      chunk: bytes.subarray(i * third, (i + 1) * third).toString('base64'),
      last: i === 2,
    });
    uploadId = answer.uploadId;
  }
  return w.ok('records.importOpen', {
    portalId: PORTAL,
    moduleId: MODULE,
    uploadId: uploadId!,
    locale: 'en-GB',
  });
}

/** The import's state once its check or queuing has ended. */
export async function settled(w: Workspace, importId: string) {
  for (;;) {
    const state = await w.ok('records.importState', { importId });
    if (!['checking', 'queuing', 'discarding'].includes(state.phase)) return state;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
