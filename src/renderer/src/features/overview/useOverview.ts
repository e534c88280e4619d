import { useCallback, useEffect, useRef, useState } from 'react';
import { CallFailure } from '../../../../shared/ipc/api';
import type { PortalOverview } from '../../../../shared/ipc/areas/overview';
import type { RecordsPortal } from '../../../../shared/ipc/areas/records';
import { useApi } from '../../bridge/ApiContext';

/** Ours: after the mirror or the outbox changed, the overview is read again at most this often. */
export const REFRESH_AFTER_CHANGE_MS = 2_000;

const PORTAL_KEY = 'portaldesk.overview.portal';

export interface OverviewState {
  portals: RecordsPortal[] | null;
  portalId: string | null;
  overview: PortalOverview | null;
  /** What went wrong reading, in words; the last overview read stays shown. */
  error: string | null;
  /** A refresh asked for by the user is being read. */
  loading: boolean;
  selectPortal(portalId: string): void;
  refresh(): void;
}

function describe(error: unknown): string {
  if (error instanceof CallFailure) return error.message;
  return error instanceof Error ? error.message : String(error);
}

function remembered(): string | null {
  try {
    return localStorage.getItem(PORTAL_KEY);
  } catch {
    return null;
  }
}

/**
 * The overview's reading of the engine: the mirrored portals, the chosen one's overview, read
 * again after its records, the outbox or its backups changed (at most every
 * REFRESH_AFTER_CHANGE_MS).
 */
export function useOverview(): OverviewState {
  const api = useApi();
  const [portals, setPortals] = useState<RecordsPortal[] | null>(null);
  const [portalId, setPortalId] = useState<string | null>(null);
  const [overview, setOverview] = useState<PortalOverview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const reading = useRef(0);
  // One reading of a portal at a time: a reading asked for while one is out (a sync's changes
  // every 2 s, a reading slower than that on a large mirror) is made once that one is answered,
  // and asking again meanwhile adds nothing. They would otherwise wait in line on the engine.
  const out = useRef<string | null>(null);
  const again = useRef(false);

  const read = useCallback(
    (id: string) => {
      const start = () => {
        if (out.current === id) {
          again.current = true;
          return;
        }
        out.current = id;
        again.current = false;
        const ticket = ++reading.current;
        const settled = () => {
          if (out.current !== id) return;
          out.current = null;
          if (again.current) start();
        };
        api.overview.portal({ portalId: id }).then(
          (result) => {
            if (ticket === reading.current) {
              setOverview(result);
              setError(null);
              if (!again.current) setLoading(false);
            }
            settled();
          },
          (failure: unknown) => {
            if (ticket === reading.current) {
              setError(
                `The overview could not be read: ${describe(failure)} What is shown was read before; choose Refresh to try again.`,
              );
              if (!again.current) setLoading(false);
            }
            settled();
          },
        );
      };
      start();
    },
    [api],
  );

  useEffect(() => {
    let live = true;
    api.records.portals().then(
      (list) => {
        if (!live) return;
        setPortals(list);
        const last = remembered();
        const choice =
          list.find((p) => p.id === last) ?? list.find((p) => p.isDefault) ?? list[0] ?? null;
        setPortalId(choice?.id ?? null);
      },
      (failure: unknown) => {
        if (live) setError(`The mirrored portals could not be read: ${describe(failure)}`);
      },
    );
    return () => {
      live = false;
    };
  }, [api]);

  useEffect(() => {
    if (portalId === null) return;
    read(portalId);
    let timer: ReturnType<typeof setTimeout> | null = null;
    const later = () => {
      timer ??= setTimeout(() => {
        timer = null;
        read(portalId);
      }, REFRESH_AFTER_CHANGE_MS);
    };
    const offRecords = api.on('records.changed', (event) => {
      if (event.portalId === portalId) later();
    });
    const offOutbox = api.on('outbox.changed', later);
    // The last backup's age and a failed attempt: a backup made or failed while the view is open.
    const offBackups = api.on('backups.changed', (event) => {
      if (event.portalId === portalId || event.portalId === null) later();
    });
    return () => {
      offRecords();
      offOutbox();
      offBackups();
      if (timer) clearTimeout(timer);
    };
  }, [api, portalId, read]);

  const selectPortal = useCallback((id: string) => {
    try {
      localStorage.setItem(PORTAL_KEY, id);
    } catch {
      // Not remembered: the default portal is shown next time.
    }
    setOverview(null);
    setPortalId(id);
  }, []);

  const refresh = useCallback(() => {
    if (portalId === null) return;
    setLoading(true);
    read(portalId);
  }, [portalId, read]);

  return { portals, portalId, overview, error, loading, selectPortal, refresh };
}
