/**
 * The Outbox's bulk edit groups (issue 20): the bulk edits with changes still queued, read while
 * the view shows them (again after each `outbox.changed`), and their undo with what it kept.
 */
import { createStore } from 'zustand/vanilla';
import { CallFailure } from '../../../../shared/ipc/api';
import type { BulkGroup } from '../../../../shared/ipc/areas/bulkEdit';
import type { Api } from '../../../../shared/ipc/contract';

const count = new Intl.NumberFormat();

export interface BulkGroupsState {
  groups: BulkGroup[];
  undoing: number | null;
  /** What the last undo did, or why it was refused. */
  message: { text: string; error: boolean } | null;
  load(): Promise<void>;
  /** Reads the groups now and after every change of the outbox; returns the unsubscribe. */
  watch(): () => void;
  undo(id: number): Promise<void>;
}

const describe = (error: unknown) =>
  error instanceof CallFailure || error instanceof Error ? error.message : String(error);

export function createBulkGroupsStore(api: Api) {
  return createStore<BulkGroupsState>()((set, get) => ({
    groups: [],
    undoing: null,
    message: null,
    load: async () => {
      try {
        set({ groups: await api.bulkEdit.groups() });
      } catch {
        // The groups are an addition to the queue shown below them: without them it stands.
        set({ groups: [] });
      }
    },
    watch: () => {
      void get().load();
      return api.on('outbox.changed', () => void get().load());
    },
    undo: async (id) => {
      set({ undoing: id, message: null });
      try {
        const done = await api.bulkEdit.undo({ id });
        set({
          message: {
            error: false,
            text:
              `Undone: ${count.format(done.restored)} ${done.restored === 1 ? 'record' : 'records'} put back.` +
              (done.sent > 0 ? ` ${count.format(done.sent)} had gone out already and stay.` : '') +
              (done.changedSince > 0
                ? ` ${count.format(done.changedSince)} edited again since keep that edit.`
                : '') +
              (done.neverQueued > 0
                ? ` ${count.format(done.neverQueued)} not queued yet when you chose Undo will not be.`
                : ''),
          },
        });
      } catch (error) {
        set({ message: { error: true, text: describe(error) } });
      } finally {
        set({ undoing: null });
        await get().load();
      }
    },
  }));
}
