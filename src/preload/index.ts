/**
 * The preload: named functions over the contract and nothing else. It imports only types from
 * the contract (the sandboxed preload stays tiny), and `satisfies Bridge` makes the compiler
 * check that every request is exposed under its name, with its types, and nothing more.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type {
  Bridge,
  BridgeCall,
  CallChannel,
  EventChannel,
  EventName,
  EventPayload,
  RequestName,
} from '../shared/ipc/contract';

const CALL: CallChannel = 'portaldesk:call';
const EVENT: EventChannel = 'portaldesk:event';

function call<N extends RequestName>(name: N): BridgeCall<N> {
  return ((args?: unknown) => ipcRenderer.invoke(CALL, name, args)) as BridgeCall<N>;
}

function on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void) {
  const forward = (_event: IpcRendererEvent, name: string, payload: unknown): void => {
    if (name === event) listener(payload as EventPayload<E>);
  };
  ipcRenderer.on(EVENT, forward);
  return () => {
    ipcRenderer.removeListener(EVENT, forward);
  };
}

const bridge = {
  app: { info: call('app.info'), openLink: call('app.openLink') },
  settings: { get: call('settings.get'), set: call('settings.set') },
  accounts: {
    list: call('accounts.list'),
    profiles: call('accounts.profiles'),
    addProfile: call('accounts.addProfile'),
    signIn: call('accounts.signIn'),
    signInDemo: call('accounts.signInDemo'),
    signInAgain: call('accounts.signInAgain'),
    cancelSignIn: call('accounts.cancelSignIn'),
    selfClient: call('accounts.selfClient'),
    demoSelfClientCode: call('accounts.demoSelfClientCode'),
    demoChangeRecord: call('accounts.demoChangeRecord'),
    signOut: call('accounts.signOut'),
    setActive: call('accounts.setActive'),
  },
  sync: {
    status: call('sync.status'),
    start: call('sync.start'),
    pause: call('sync.pause'),
    resume: call('sync.resume'),
    cancel: call('sync.cancel'),
    fetchComments: call('sync.fetchComments'),
  },
  records: {
    portals: call('records.portals'),
    export: call('records.export'),
    latestExport: call('records.latestExport'),
    cancelExport: call('records.cancelExport'),
    exportLink: call('records.exportLink'),
    showExport: call('records.showExport'),
    importUpload: call('records.importUpload'),
    importOpen: call('records.importOpen'),
    importCheck: call('records.importCheck'),
    importFailures: call('records.importFailures'),
    importConfirm: call('records.importConfirm'),
    importCancel: call('records.importCancel'),
    importState: call('records.importState'),
    modules: call('records.modules'),
    columns: call('records.columns'),
    query: call('records.query'),
    ids: call('records.ids'),
    rows: call('records.rows'),
    listed: call('records.listed'),
    get: call('records.get'),
    trashed: call('records.trashed'),
    search: call('records.search'),
    savedFilters: call('records.savedFilters'),
    saveFilter: call('records.saveFilter'),
    deleteFilter: call('records.deleteFilter'),
    recent: call('records.recent'),
    viewed: call('records.viewed'),
  },
  router: {
    overview: call('router.overview'),
    startIngress: call('router.startIngress'),
    setAccount: call('router.setAccount'),
    createPublisher: call('router.createPublisher'),
    rotateApiKey: call('router.rotateApiKey'),
    setPublisherStatus: call('router.setPublisherStatus'),
    createEvent: call('router.createEvent'),
    schemaVersions: call('router.schemaVersions'),
    setSample: call('router.setSample'),
    editSchemaKeys: call('router.editSchemaKeys'),
    validateSample: call('router.validateSample'),
    startCapture: call('router.startCapture'),
    saveRule: call('router.saveRule'),
    setRuleStatus: call('router.setRuleStatus'),
    saveTarget: call('router.saveTarget'),
    setTargetStatus: call('router.setTargetStatus'),
    listEvents: call('router.listEvents'),
    getEvent: call('router.getEvent'),
    redeliver: call('router.redeliver'),
    sendTestEvent: call('router.sendTestEvent'),
    requestBin: call('router.requestBin'),
  },
  outbox: {
    form: call('outbox.form'),
    edit: call('outbox.edit'),
    create: call('outbox.create'),
    trash: call('outbox.trash'),
    restore: call('outbox.restore'),
    deleteRecord: call('outbox.deleteRecord'),
    comment: call('outbox.comment'),
    pendingComments: call('outbox.pendingComments'),
    list: call('outbox.list'),
    retry: call('outbox.retry'),
    discard: call('outbox.discard'),
    resolve: call('outbox.resolve'),
    setWorkOffline: call('outbox.setWorkOffline'),
    status: call('outbox.status'),
    history: call('outbox.history'),
    exportHistory: call('outbox.exportHistory'),
  },
  backups: {
    overview: call('backups.overview'),
    start: call('backups.start'),
    refreshHistory: call('backups.refreshHistory'),
    download: call('backups.download'),
    cancelDownload: call('backups.cancelDownload'),
    verify: call('backups.verify'),
    cancelVerify: call('backups.cancelVerify'),
    compare: call('backups.compare'),
    browse: call('backups.browse'),
    closeBrowse: call('backups.closeBrowse'),
    delete: call('backups.delete'),
    setSchedule: call('backups.setSchedule'),
    readKeychain: call('backups.readKeychain'),
    forgetCode: call('backups.forgetCode'),
    showInFolder: call('backups.showInFolder'),
    downloadLink: call('backups.downloadLink'),
    startDrag: call('backups.startDrag'),
  },
  configure: {
    modules: call('configure.modules'),
    createModule: call('configure.createModule'),
    updateModule: call('configure.updateModule'),
    setModuleActive: call('configure.setModuleActive'),
    trashModule: call('configure.trashModule'),
    recoverModule: call('configure.recoverModule'),
    deleteModule: call('configure.deleteModule'),
    layouts: call('configure.layouts'),
    createLayout: call('configure.createLayout'),
    updateLayout: call('configure.updateLayout'),
    deleteLayout: call('configure.deleteLayout'),
    putSection: call('configure.putSection'),
    deleteSection: call('configure.deleteSection'),
    removeLayoutField: call('configure.removeLayoutField'),
    placeField: call('configure.placeField'),
    fields: call('configure.fields'),
    createField: call('configure.createField'),
    updateField: call('configure.updateField'),
    fieldUsage: call('configure.fieldUsage'),
    deleteField: call('configure.deleteField'),
    integrationServices: call('configure.integrationServices'),
    integrationModules: call('configure.integrationModules'),
    integrationFields: call('configure.integrationFields'),
    fieldOptions: call('configure.fieldOptions'),
    changeOptions: call('configure.changeOptions'),
    exportConfiguration: call('configure.exportConfiguration'),
    planCopy: call('configure.planCopy'),
    applyCopy: call('configure.applyCopy'),
    statuses: call('configure.statuses'),
    changeStatuses: call('configure.changeStatuses'),
    fieldPeople: call('configure.fieldPeople'),
    changePeople: call('configure.changePeople'),
  },
  bin: {
    list: call('bin.list'),
    restore: call('bin.restore'),
    delete: call('bin.delete'),
    empty: call('bin.empty'),
  },
  bulkEdit: {
    preview: call('bulkEdit.preview'),
    apply: call('bulkEdit.apply'),
    groups: call('bulkEdit.groups'),
    undo: call('bulkEdit.undo'),
    trash: call('bulkEdit.trash'),
  },
  overview: { portal: call('overview.portal') },
  on,
} satisfies Bridge;

contextBridge.exposeInMainWorld('portaldesk', bridge);
