import path from 'node:path';
import type { AppInfo, EventName } from '../shared/ipc/contract';
import { APP_NAME } from './appIdentity';
import { ContractDispatcher, type DispatcherLog, type Handlers } from './bridge/dispatcher';
import { EventHub } from './bridge/eventHub';
import type { PushRate } from './bridge/pushRates';
import { AccountManager } from './auth/accountManager';
import { engineDemoRecordChangeDeps } from './auth/demoRecordChange';
import { RecordsReader } from './records/recordsReader';
import { DemoService } from './auth/demoService';
import { KeychainSecretStore } from './auth/keychainSecretStore';
import type { SecretStore } from './auth/secretStore';
import { accountsHandlers } from './handlers/accountsHandlers';
import { backupsHandlers, type FileShell } from './handlers/backupsHandlers';
import { BackupService, type BackupServiceOptions } from './backups/backupService';
import { appHandlers } from './handlers/appHandlers';
import { linkHandlers } from './handlers/linkHandlers';
import { outboxHandlers } from './handlers/outboxHandlers';
import { openSignInPage } from './auth/signInPage';
import { openInBrowser } from './openBrowser';
import { redactingLog } from './redactingLog';
import { feedRouter } from './routerFeeds';
import { recordsHandlers } from './handlers/recordsHandlers';
import { recordsExportHandlers } from './handlers/recordsExportHandlers';
import { RecordsExports } from './recordsExport/recordsExports';
import { RecordsImports, type RecordsImportsOptions } from './recordsImport/recordsImports';
import { recordsImportHandlers } from './handlers/recordsImportHandlers';
import { threadExportStarter } from './recordsExport/exportThread';
import { EXPORT_WORKER_SCRIPT } from './recordsExport/exportWorkerScript';
import { settingsHandlers } from './handlers/settingsHandlers';
import { syncHandlers } from './handlers/syncHandlers';
import { routerHandlers } from './handlers/routerHandlers';
import { startRouter } from './router/startRouter';
import { OutboxService } from './outbox/outboxService';
import { BudgetStore } from './api/budgetStore';
import { RequestScheduler } from './api/requestScheduler';
import { systemClock } from './api/schedulerClock';
import { Mirror } from './store/mirror/mirror';
import { Connectivity, workOfflineStore } from './connectivity/connectivity';
import { CustomFieldIndexer } from './store/mirror/customFieldIndexer';
import { inlineMirrorWriter } from './store/mirror/mirrorWriter';
import { MIRROR_WRITER_SCRIPT } from './store/mirror/mirrorWriterScript';
import { MirrorWriterThread } from './store/mirror/mirrorWriterThread';
import { ConfigureService } from './configure/configureService';
import { configCopyHandlers } from './handlers/configCopyHandlers';
import { ConfigCopyService } from './configure/copy/configCopyService';
import { configureHandlers } from './handlers/configureHandlers';
import { configureChoiceHandlers } from './handlers/configureChoiceHandlers';
import { binHandlers } from './handlers/binHandlers';
import { bulkEditHandlers } from './handlers/bulkEditHandlers';
import { BulkEditService } from './bulkEdit/bulkEditService';
import { patchBudget } from './bulkEdit/patchBudget';
import { overviewHandlers } from './handlers/overviewHandlers';
import { OverviewService } from './overview/overviewService';
import { MirrorOverviewReader } from './overview/mirrorOverview';
import { OverviewThread } from './overview/overviewThread';
import { OVERVIEW_WORKER_SCRIPT } from './overview/overviewWorkerScript';
import { IntegrationFields } from './configure/integrationFields';
import { SettingsRepository } from './store/settingsRepository';
import { syncPreferences } from '../shared/ipc/settings';
import { Store, type StoreOptions } from './store/store';
import { SyncService, type AccountSource, type SyncServiceOptions } from './sync/syncService';

export interface EngineOptions {
  dataDir: string;
  mode: AppInfo['mode'];
  version: string;
  nativeBinding?: string;
  migrations?: StoreOptions['migrations'];
  log?: DispatcherLog;
  /** Who is signed in (sign-in's AccountManager unless a test gives its own). */
  accounts?: AccountSource;
  /** Sync on start-up, sign-in, periodically and after going offline (default true). */
  autoSync?: boolean;
  /** Test hooks for the sync service (fetch, retry waits, page size, …). */
  sync?: Pick<SyncServiceOptions, 'client' | 'engine' | 'clock'>;
  /** How often pushed events may go, per event (tests: {} sends every push at once). */
  pushRates?: Partial<Record<EventName, PushRate>>;
  /**
   * Opens the system browser for sign-in (Electron: shell.openExternal); default: the OS browser.
   * Either way through a private page (auth/signInPage.ts): the address holds the sign-in's state.
   */
  openExternal?: (url: string) => Promise<unknown> | unknown;
  /**
   * Opens a record's link in the system browser once `app.openLink` has checked it (an http(s)
   * address the mirror holds); default: `openExternal`. Desktop: shell.openExternal, because the
   * sign-in opener refuses anything but accounts servers.
   */
  openLink?: (url: string) => Promise<unknown> | unknown;
  /**
   * Where refresh tokens, client secrets and kept backup access codes go; default: the OS
   * keychain (tests: in memory).
   */
  secrets?: SecretStore;
  /** Desktop only: show a file in its folder, drag it out of the window (Electron's shell). */
  fileShell?: FileShell;
  /** Test hooks for backups (downloads' fetch, waits, clock); `autoStart` false drives them by hand. */
  backups?: Pick<BackupServiceOptions, 'fetch' | 'sleep' | 'now' | 'autoStart'>;
  /** Test hooks for the records import: the clock uploads expire by, the bound on what they hold. */
  imports?: Pick<RecordsImportsOptions, 'now' | 'uploadsMaxBytes'>;
}

/**
 * Everything PortalDesk does, independent of how it is shown: the store, the handlers and the
 * event hub. Electron's main process and web mode's Node process each start exactly one.
 */
export interface Engine {
  readonly dispatcher: ContractDispatcher;
  readonly events: EventHub;
  readonly store: Store;
  /** The local mirror of every portal, on the store's connection. */
  readonly mirror: Mirror;
  /** The request scheduler, the sync engine and automatic syncs. */
  readonly sync: SyncService;
  /** Sign-in: accounts, their tokens, the demo portal. */
  readonly accounts: AccountManager;
  /** Portal backups: made, downloaded, verified, kept. */
  readonly backups: BackupService;
  /** The records table's view written to CSV or XLSX files. */
  readonly exports: RecordsExports;
  /** CSV and XLSX files read into a module through the outbox. */
  readonly imports: RecordsImports;
  info(): AppInfo;
  close(): void;
}

export function startEngine(options: EngineOptions): Engine {
  const log = redactingLog(options.log ?? console);
  const store = Store.open({
    dataDir: options.dataDir,
    mode: options.mode,
    warn: (message) => log.warn(message),
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    ...(options.migrations ? { migrations: options.migrations } : {}),
  });
  const events = new EventHub(options.pushRates);
  const mirror = new Mirror(store.db);
  // The sync's writes (pulled records, settings, comments) run on a thread of their own where
  // the build has it, so the engine's thread stays free to answer the UI.
  const writerThread = MIRROR_WRITER_SCRIPT
    ? new MirrorWriterThread(
        { script: MIRROR_WRITER_SCRIPT, file: store.file, nativeBinding: options.nativeBinding },
        inlineMirrorWriter(mirror),
        log,
      )
    : null;
  const writer = writerThread?.writer ?? inlineMirrorWriter(mirror);
  // Every API call of the app, whoever makes it, spends from these budgets.
  const scheduler = new RequestScheduler({
    clock: options.sync?.clock ?? systemClock,
    store: new BudgetStore(store.db),
    log,
  });
  const demo = new DemoService({ dir: path.join(options.dataDir, 'demo') });
  const openExternal =
    options.openExternal ?? ((url: string) => openSignInPage(url, { dir: options.dataDir }));
  const secrets = options.secrets ?? new KeychainSecretStore();
  const accountManager = new AccountManager({
    db: store.db,
    secrets,
    demo,
    scheduler,
    openExternal,
    // Every opener (this default, the desktop's, web mode's) writes the page there.
    signInPageDir: options.dataDir,
    mirror: mirror.metadata,
    log,
  });
  const accounts = options.accounts ?? accountManager;
  const router = startRouter(store.db, events);
  // Whether the service answers (every call passes the scheduler) and the "Work offline" switch.
  const connectivity = Connectivity.fedBy(scheduler, workOfflineStore(store.db));
  const settings = new SettingsRepository(store.db);
  const preferences = syncPreferences(settings.read());
  const sync = new SyncService({
    db: store.db,
    mirror,
    accounts,
    scheduler,
    connectivity,
    periodicMs: preferences.periodicMs,
    events,
    autoSync: options.autoSync ?? true,
    ...options.sync,
    engine: { commentBackfill: preferences.commentBackfill, writer, ...options.sync?.engine },
    log,
  });
  const outbox = new OutboxService({
    db: store.db,
    mirror,
    connection: sync,
    connectivity,
    events,
    log,
  });
  // A portal's configuration, changed through the outbox; a replayed create or recover reads the
  // portal again so the module's layouts, fields and records follow.
  const configure = new ConfigureService({
    db: store.db,
    mirror,
    outbox,
    events,
    refresh: (portalId) => {
      if (options.autoSync !== false) sync.start({ portalId });
    },
    clientFor: (portalId) => sync.clientForPortal(portalId),
  });
  // Options renamed on the service: the queued record changes naming them follow (configure owns
  // what becomes of record changes when options change).
  sync.onOptionsRenamed((change) => configure.optionsRenamedThere(change));
  const backups = new BackupService({
    db: store.db,
    dataDir: options.dataDir,
    mirror,
    clientFor: (portalId) => sync.clientForPortal(portalId),
    scheduler,
    secrets,
    events,
    log,
    mirrorFile: store.file,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    ...options.backups,
  });
  const exports = new RecordsExports({
    db: store.db,
    mirror,
    // An export opens and writes its view on a thread of its own where the build has it.
    ...(EXPORT_WORKER_SCRIPT
      ? {
          starter: threadExportStarter({
            script: EXPORT_WORKER_SCRIPT,
            file: store.file,
            nativeBinding: options.nativeBinding,
          }),
        }
      : {}),
    dataDir: options.dataDir,
    events,
    ...(options.fileShell
      ? { showInFolder: (file: string) => options.fileShell?.showInFolder(file) }
      : {}),
    log,
  });
  // The overview's counts (200 ms at a million records) on a thread of their own where the build
  // has it: read every 2 s while a sync runs and the view is open, they would hold this thread.
  const inlineOverview = new MirrorOverviewReader(store.db);
  const overviewThread = OVERVIEW_WORKER_SCRIPT
    ? new OverviewThread(
        { script: OVERVIEW_WORKER_SCRIPT, file: store.file, nativeBinding: options.nativeBinding },
        inlineOverview,
        log,
      )
    : null;
  const overviewSource = overviewThread ?? inlineOverview;
  const imports = new RecordsImports({
    db: store.db,
    dataDir: options.dataDir,
    mirror,
    outbox,
    events,
    log,
    ...options.imports,
  });
  // A sync may bring or remove portals, and with them what can be backed up.
  const stopBackupPortals = sync.onRunEnded(() => backups.portalsChanged());
  // Custom fields that lists filter and sort on get expression indexes, built by a worker thread.
  const customFieldIndexes = CustomFieldIndexer.attach(mirror.query, {
    db: store.db,
    file: store.file,
    nativeBinding: options.nativeBinding,
    busy: () => sync.isSyncing(),
    log,
  });
  const stopFeeds = feedRouter(router.engine, {
    mirror,
    sync,
    outbox,
    accounts: accountManager,
    log,
  });
  const info = (): AppInfo => ({
    name: APP_NAME,
    version: options.version,
    mode: options.mode,
    dataDir: options.dataDir,
    schemaVersion: store.schemaVersion,
    platform: process.platform,
  });
  // One line per area; each area's handlers are a factory in ./handlers taking what it needs.
  const handlers = {
    ...appHandlers(info),
    ...linkHandlers({
      db: store.db,
      // A record's link holds no secret: straight to the browser, no sign-in page.
      openExternal: options.openLink ?? options.openExternal ?? openInBrowser,
    }),
    ...settingsHandlers(settings, events, (changed) =>
      sync.setPreferences(syncPreferences(changed)),
    ),
    ...syncHandlers(sync),
    ...accountsHandlers({
      accounts: accountManager,
      events,
      demoChanges: engineDemoRecordChangeDeps({
        mirror,
        reader: new RecordsReader(store.db, mirror),
        accounts: accountManager,
        demo,
      }),
    }),
    ...routerHandlers(router),
    ...recordsHandlers({
      db: store.db,
      mirror,
      snapshots: backups.snapshots,
      moduleOverlay: (portalId) => configure.shownModules(portalId),
    }),
    ...recordsExportHandlers(exports),
    ...recordsImportHandlers(imports),
    ...outboxHandlers(outbox),
    ...backupsHandlers(backups, options.fileShell),
    ...configureHandlers(
      configure,
      new IntegrationFields((portalId) => sync.clientForPortal(portalId)),
    ),
    ...configCopyHandlers(new ConfigCopyService({ configure, mirror, repo: outbox.repo })),
    ...configureChoiceHandlers(configure),
    ...binHandlers(configure.portalBin),
    ...bulkEditHandlers(
      new BulkEditService({
        db: store.db,
        mirror,
        outbox,
        events,
        patchBudget: (portalId) =>
          patchBudget(sync.clientForPortal(portalId), () => scheduler.report(), portalId),
      }),
    ),
    ...overviewHandlers(new OverviewService(overviewSource, () => scheduler.report())),
  } satisfies Handlers;

  return {
    dispatcher: new ContractDispatcher(handlers, log),
    events,
    store,
    mirror,
    sync,
    accounts: accountManager,
    backups,
    exports,
    imports,
    info,
    close: () => {
      // Runs stop and budgets are written before the store they live in closes.
      stopFeeds();
      stopBackupPortals();
      backups.close();
      // A running export stops; its partial file is deleted once its last write settles.
      void exports.close();
      imports.close();
      outbox.close();
      sync.close();
      accountManager.close();
      // Aborts what is still queued and writes the budgets, before the store closes.
      scheduler.close();
      void demo.close();
      router.close();
      customFieldIndexes.close();
      // Refuses the overview readings still out (they only read) and ends its thread.
      overviewThread?.close();
      // Waits for the writes handed over, so what was pulled before closing is kept.
      writerThread?.close();
      // Pushes still waiting would build their payloads from a closed store.
      events.close();
      store.close();
    },
  };
}
