/**
 * Offers text as a file to save: web mode downloads it; the desktop app's window asks where to
 * save it (Electron's own save dialog for a download). Configuration copies and the Outbox's
 * history export through it.
 */
export function offerFile(fileName: string, text: string, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // The click has started the download; the URL is not needed after this turn.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
