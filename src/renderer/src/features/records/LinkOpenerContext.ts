import { createContext } from 'react';

/**
 * Opens a record's URL in the system browser through the engine (`app.openLink`, which checks
 * that record holds it), never in the app's window. Null where no engine is connected (static
 * renders in tests): links then stay plain links, which the desktop window refuses to open anyway.
 */
export const LinkOpenerContext = createContext<((url: string, recordId: string) => void) | null>(
  null,
);
