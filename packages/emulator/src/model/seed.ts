/**
 * Deterministic demo data: the same --seed gives the same portals, people, modules and records.
 * Times are laid out backwards from the start of the emulated day the emulator starts on, so
 * "today", "overdue" and "this_week" filters find something whatever the date.
 */
import { registerDemoClient } from '../accounts/clients';
import type { CustomFieldType } from '@portaldesk/portal-api/domain/customFieldTypes';
import { CUSTOM_FIELD_TYPES } from '@portaldesk/portal-api/domain/customFieldTypes';
import type { EmulatorState } from '../state';
import { BatchInsert } from './batchInsert';
import { DEFAULT_LAYOUT_NAME, DEFAULT_SECTION_NAMES, SYSTEM_FIELDS } from './moduleDefaults';
import { Random } from './random';
import {
  COMMENT_LINES,
  CURRENCIES,
  DEMO_EMAIL_DOMAIN,
  DEMO_PASSWORD,
  ISSUE_TITLES,
  MODULES,
  PEOPLE,
  PHASE_NAMES,
  PORTALS,
  PROJECT_NAMES,
  SENTENCES,
  TASK_OBJECTS,
  TASK_VERBS,
  TASKLIST_NAMES,
  type SeedField,
  type SeedModule,
} from './seedCatalog';
import { API_ONLY_DATA_CENTERS, type SeedSpread } from '../config';

export interface SeedSummary {
  /** The demo user's portals, in the first data center. */
  portals: string[];
  user: { email: string; password: string };
  clientSecrets: Record<string, string>;
}

const DAY_MS = 86_400_000;
/** Records of data centers other than the first: a small portal each, so every region has data. */
const OTHER_DC_RECORDS = 25;

const adminEmail = (dc: string, first: boolean) =>
  first ? `admin@${DEMO_EMAIL_DOMAIN}` : `admin.${dc}@${DEMO_EMAIL_DOMAIN}`;

/**
 * Seeds a fresh database; `replace` first empties every table in the same transaction, so a
 * failed reseed leaves the old data in place.
 */
export function seedDatabase(
  state: EmulatorState,
  { fresh, replace = false }: { fresh: boolean; replace?: boolean },
): SeedSummary {
  const firstDc = state.config.dcs.find((dc) => !API_ONLY_DATA_CENTERS.has(dc)) as string;
  if (fresh) {
    bulkLoad(state.db, () => {
      if (replace) emptyDataTables(state.db);
      new Seeder(state).run(firstDc);
    });
  }
  const clientSecrets = registerDemoClient(state);
  const email = adminEmail(firstDc, true);
  const portals = state.db
    .prepare(
      `SELECT p.id FROM portals p JOIN users u ON u.zpuid = p.owner_zpuid
       WHERE u.email = ? ORDER BY p.id`,
    )
    .all(email) as { id: number }[];
  return {
    portals: portals.map((row) => String(row.id)),
    user: { email, password: DEMO_PASSWORD },
    clientSecrets,
  };
}

/**
 * Runs a bulk load with the secondary indexes dropped and foreign keys unchecked, then builds the
 * indexes once and checks every foreign key in one pass: several times cheaper than maintaining
 * both row by row, and a seed bug still fails loudly.
 */
function bulkLoad(db: EmulatorState['db'], load: () => void): void {
  const indexes = db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
    .all() as { name: string; sql: string }[];
  // foreign_keys cannot change inside a transaction, so it is switched around it.
  db.pragma('foreign_keys = OFF');
  try {
    db.transaction(() => {
      for (const index of indexes) db.exec(`DROP INDEX "${index.name}"`);
      load();
      for (const index of indexes) db.exec(index.sql);
      const broken = db.pragma('foreign_key_check') as { table: string; parent: string }[];
      if (broken.length > 0) {
        const first = broken[0]!;
        throw new Error(
          `The seed broke ${broken.length} foreign keys (first: ${first.table} → ${first.parent}).`,
        );
      }
    })();
  } finally {
    db.pragma('foreign_keys = ON');
  }
}

/** Empties every table and seeds again (the admin surface's `POST reset`). */
export function reseedDatabase(state: EmulatorState): SeedSummary {
  return seedDatabase(state, { fresh: true, replace: true });
}

/** Every table of the schema but the emulator's own bookkeeping; foreign keys are off here. */
function emptyDataTables(db: EmulatorState['db']): void {
  const tables = db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'emulator_meta'",
    )
    .pluck()
    .all() as string[];
  for (const table of tables) db.exec(`DELETE FROM "${table}"`);
}

interface PortalSeed {
  id: number;
  users: string[];
  activeUsers: string[];
  projects: number[];
}

interface ModuleSeed {
  id: number;
  def: SeedModule;
  layouts: { id: number; fields: SeedField[] }[];
  statuses: { id: number; closed: boolean }[];
  transitions: Map<number, number[]>;
  options: Map<string, { id: number; value: string }[]>;
}

class Seeder {
  private readonly random: Random;
  private readonly anchor: number;
  private readonly db: EmulatorState['db'];
  private readonly insert;

  constructor(private readonly state: EmulatorState) {
    this.random = new Random(state.config.seed);
    this.anchor = Math.floor(state.clock.now() / DAY_MS) * DAY_MS;
    this.db = state.db;
    const prepare = (sql: string) => this.db.prepare(sql);
    const entity = new BatchInsert(this.db, 'entities', [
      'id',
      'module_id',
      'project_id',
      'layout_id',
      'status_id',
      'name',
      'description',
      'is_closed',
      'owner_zpuid',
      'custom',
      'created_time',
      'last_updated_time',
    ]);
    this.insert = {
      user: prepare(
        `INSERT INTO users (zpuid, id, email, password, first_name, last_name, dc, role, status, is_team_lead, reports_to)
         VALUES (@zpuid, @id, @email, @password, @first, @last, @dc, @role, @status, @lead, @reportsTo)`,
      ),
      portal: prepare(
        `INSERT INTO portals (id, portal_name, org_name, zsoid, dc, owner_zpuid, timezone, is_default,
           profile_id, profile_name, project_plan, bug_plan, logo_url, business_details)
         VALUES (@id, @name, @org, @zsoid, @dc, @owner, @timezone, @isDefault, @profileId, 'Administrator',
           'Enterprise', 'Premium', @logo, @business)`,
      ),
      portalUser: prepare(
        'INSERT INTO portal_users (portal_id, zpuid, invite_status, is_client_user) VALUES (?, ?, ?, ?)',
      ),
      workItem: prepare(
        `INSERT INTO work_items (id, portal_id, module, name, project_id, created_time)
         VALUES (?, ?, ?, ?, ?, ?)`,
      ),
      module: prepare(
        `INSERT INTO modules (id, portal_id, api_name, singular_name, plural_name, icon_class,
           is_customized, is_default, is_web_tab, is_all_projects, created_time)
         VALUES (@id, @portal, @apiName, @singular, @plural, @icon, @customized, @isDefault, @webTab, 1, @created)`,
      ),
      layout: prepare(
        `INSERT INTO layouts (id, module_id, name, type, is_default, created_time) VALUES (?, ?, ?, ?, ?, ?)`,
      ),
      section: prepare('INSERT INTO sections (id, layout_id, name, position) VALUES (?, ?, ?, ?)'),
      field: prepare(
        `INSERT INTO fields (id, module_id, api_name, display_name, field_type, data_type, is_default,
           is_mandatory, field_property, created_time)
         VALUES (@id, @module, @apiName, @label, @type, @dataType, @isDefault, @mandatory, @property, @created)`,
      ),
      layoutField: prepare(
        'INSERT INTO layout_fields (layout_id, field_id, section_id, position) VALUES (?, ?, ?, ?)',
      ),
      option: prepare(
        `INSERT INTO field_options (id, field_id, layout_id, kind, value, position)
         VALUES (?, ?, NULL, 'custom_option', ?, ?)`,
      ),
      status: prepare(
        `INSERT INTO statuses (id, module_id, name, color, is_closed_type, is_default, position)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      transition: prepare(
        'INSERT INTO status_transitions (from_status_id, to_status_id) VALUES (?, ?)',
      ),
      // The three tables that grow with --records are loaded in batches.
      entity,
      timeline: new BatchInsert(
        this.db,
        'status_timeline',
        ['id', 'entity_id', 'from_status_id', 'to_status_id', 'changed_by', 'changed_time'],
        [entity],
      ),
      comment: new BatchInsert(
        this.db,
        'comments',
        ['id', 'entity_id', 'content', 'created_by', 'created_time', 'last_updated_time'],
        [entity],
      ),
    };
  }

  private id(): number {
    return this.state.nextId();
  }

  private readonly dayPrefixes = new Map<number, string>();

  /**
   * `new Date(ms).toISOString()`, without a Date per call: the seed formats about four times as
   * many timestamps as records, and the date part repeats.
   */
  private iso(ms: number): string {
    const day = Math.floor(ms / DAY_MS);
    let prefix = this.dayPrefixes.get(day);
    if (prefix === undefined) {
      prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
      this.dayPrefixes.set(day, prefix);
    }
    const inDay = ms - day * DAY_MS;
    const pad = (n: number, width = 2) => String(n).padStart(width, '0');
    return `${prefix}${pad(Math.floor(inDay / 3_600_000))}:${pad(Math.floor(inDay / 60_000) % 60)}:${pad(
      Math.floor(inDay / 1000) % 60,
    )}.${pad(inDay % 1000, 3)}Z`;
  }

  /** A time within the last `days` days before the anchor. */
  private past(days: number): number {
    return this.anchor - this.random.int(0, days * DAY_MS);
  }

  run(firstDc: string): void {
    const { records, dcs, spread } = this.state.config;
    const people = this.seedPeople(firstDc, true);
    if (spread) {
      this.seedSpread(firstDc, people, spread, records);
    } else {
      const first = PORTALS.map((portal, index) =>
        this.seedPortal(firstDc, people, portal, index === 0),
      );
      this.seedRecords(first[0] as PortalSeed, Math.ceil(records * 0.6));
      this.seedRecords(first[1] as PortalSeed, Math.floor(records * 0.4));
    }
    for (const dc of dcs) {
      if (dc === firstDc || API_ONLY_DATA_CENTERS.has(dc)) continue;
      const locals = this.seedPeople(dc, false);
      const portal = this.seedPortal(
        dc,
        locals,
        { ...PORTALS[0], name: `northwind-${dc}`, org: `Northwind ${dc.toUpperCase()}` },
        true,
      );
      this.seedRecords(portal, Math.min(records, OTHER_DC_RECORDS));
    }
    this.insert.timeline.flush();
    this.insert.comment.flush();
  }

  /**
   * `--portals N --modules M`: N portals, each with M custom modules, every module an even share
   * of the records (the first `records mod N×M` modules one more). Portals and modules cycle
   * through the catalog's shapes; repeats get a number (`northwind-3`, `assets_2` "Assets 2").
   */
  private seedSpread(
    dc: string,
    people: string[],
    { portals, modules }: SeedSpread,
    records: number,
  ): void {
    const seeded = Array.from({ length: portals }, (_, index) => {
      const shape = PORTALS[index % PORTALS.length]!;
      const def =
        index < PORTALS.length
          ? shape
          : { ...shape, name: `${shape.name}-${index + 1}`, org: `${shape.org} ${index + 1}` };
      return this.seedPortal(dc, people, def, index === 0);
    });
    const total = portals * modules;
    const share = Math.floor(records / total);
    const extra = records % total;
    seeded.forEach((portal, portalIndex) => {
      for (let index = 0; index < modules; index++) {
        const shape = MODULES[index % MODULES.length]!;
        const round = Math.floor(index / MODULES.length) + 1;
        const def =
          round === 1
            ? shape
            : {
                ...shape,
                apiName: `${shape.apiName}_${round}`,
                singular: `${shape.singular} ${round}`,
                plural: `${shape.plural} ${round}`,
              };
        const module = this.seedModule(portal, def, shape);
        const n = share + (portalIndex * modules + index < extra ? 1 : 0);
        for (let i = 0; i < n; i++) this.seedRecord(portal, module, i + 1);
      }
    });
  }

  /** The admin, two team leads reporting to them, and everyone else reporting to a lead. */
  private seedPeople(dc: string, firstDc: boolean): string[] {
    const zpuids: string[] = [];
    const team = firstDc ? PEOPLE : PEOPLE.slice(0, 4);
    const add = (
      first: string,
      last: string,
      email: string,
      extra: Partial<Record<string, unknown>>,
    ) => {
      const zpuid = String(this.id());
      this.insert.user.run({
        zpuid,
        id: this.id(),
        email,
        password: DEMO_PASSWORD,
        first,
        last,
        dc,
        role: 'user',
        status: 'active',
        lead: 0,
        reportsTo: null,
        ...extra,
      });
      zpuids.push(zpuid);
      return zpuid;
    };
    const admin = add('Alex', 'Admin', adminEmail(dc, firstDc), { role: 'admin', lead: 1 });
    const leads: string[] = [];
    team.forEach(([firstName, lastName], index) => {
      const isLead = index < 2;
      const status =
        firstDc && index === team.length - 1
          ? 'deleted'
          : firstDc && index === team.length - 2
            ? 'deactivated'
            : 'active';
      const email =
        `${firstName}.${lastName}`
          .toLowerCase()
          .normalize('NFD')
          .replace(/[^a-z.]/g, '') +
        (firstDc ? '' : `.${dc}`) +
        `@${DEMO_EMAIL_DOMAIN}`;
      const zpuid = add(firstName, lastName, email, {
        lead: isLead ? 1 : 0,
        status,
        reportsTo: isLead ? admin : (leads[index % 2] ?? admin),
      });
      if (isLead) leads.push(zpuid);
    });
    return zpuids;
  }

  private seedPortal(
    dc: string,
    users: string[],
    def:
      | (typeof PORTALS)[number]
      | {
          name: string;
          org: string;
          timezone: string;
          weekStart: number;
          workingDays: readonly string[];
          dateFormat: string;
        },
    isDefault: boolean,
  ): PortalSeed {
    const id = this.id();
    const owner = users[0] as string;
    this.insert.portal.run({
      id,
      name: def.name,
      org: def.org,
      zsoid: String(600000000 + (id % 100000000)),
      dc,
      owner,
      timezone: def.timezone,
      isDefault: isDefault ? 1 : 0,
      profileId: this.id(),
      logo: `/portal/${def.name}/logo.png`,
      business: JSON.stringify({
        start_time: '09:00',
        end_time: '18:00',
        data_format: def.dateFormat,
        time_format: 'hh:mm aaa',
        weekends: ['Saturday', 'Sunday'],
        working_days: def.workingDays,
        week_start_day: def.weekStart,
        week_start_year: 1,
      }),
    });
    users.forEach((zpuid, index) => {
      // One pending invitation and one client user, so the user presets have someone to find.
      const pending = index === users.length - 3 ? 'pending' : 'accepted';
      this.insert.portalUser.run(id, zpuid, pending, index === 3 ? 1 : 0);
    });
    const activeUsers = this.db
      .prepare(
        `SELECT u.zpuid FROM users u JOIN portal_users pu ON pu.zpuid = u.zpuid
         WHERE pu.portal_id = ? AND u.status = 'active' ORDER BY u.id`,
      )
      .all(id)
      .map((row) => (row as { zpuid: string }).zpuid);
    const portal: PortalSeed = { id, users, activeUsers, projects: [] };
    this.seedWorkItems(portal);
    for (const builtIn of ['projects', 'phases', 'tasklists', 'tasks', 'issues']) {
      this.insert.module.run({
        id: this.id(),
        portal: id,
        apiName: builtIn,
        singular: builtIn[0]!.toUpperCase() + builtIn.slice(1, -1),
        plural: builtIn[0]!.toUpperCase() + builtIn.slice(1),
        icon: `icon-${builtIn}`,
        customized: 0,
        isDefault: 1,
        webTab: 0,
        created: this.iso(this.past(900)),
      });
    }
    return portal;
  }

  private seedWorkItems(portal: PortalSeed): void {
    const names = this.random.sample(PROJECT_NAMES, 6);
    for (const name of names) {
      const project = this.id();
      portal.projects.push(project);
      const created = this.iso(this.past(700));
      this.insert.workItem.run(project, portal.id, 'projects', name, null, created);
      for (const phase of PHASE_NAMES) {
        this.insert.workItem.run(this.id(), portal.id, 'phases', phase, project, created);
      }
      for (const list of TASKLIST_NAMES) {
        this.insert.workItem.run(this.id(), portal.id, 'tasklists', list, project, created);
      }
      for (let i = 0; i < 8; i++) {
        const task = `${this.random.pick(TASK_VERBS)} ${this.random.pick(TASK_OBJECTS)}`;
        this.insert.workItem.run(this.id(), portal.id, 'tasks', task, project, created);
      }
      for (let i = 0; i < 4; i++) {
        this.insert.workItem.run(
          this.id(),
          portal.id,
          'issues',
          this.random.pick(ISSUE_TITLES),
          project,
          created,
        );
      }
    }
  }

  /** `shape`: the catalog module `def` copies (a numbered repeat's layouts follow its shape). */
  private seedModule(portal: PortalSeed, def: SeedModule, shape: SeedModule = def): ModuleSeed {
    const moduleId = this.id();
    const created = this.iso(this.past(800));
    this.insert.module.run({
      id: moduleId,
      portal: portal.id,
      apiName: def.apiName,
      singular: def.singular,
      plural: def.plural,
      icon: def.icon,
      customized: 1,
      isDefault: 0,
      webTab: shape.apiName === 'assets' ? 1 : 0,
      created,
    });

    // System fields every record has, then the module's custom fields.
    const system = SYSTEM_FIELDS;
    const fieldIds = new Map<string, number>();
    for (const field of system) {
      const id = this.id();
      fieldIds.set(field.apiName, id);
      this.insert.field.run({
        id,
        module: moduleId,
        apiName: field.apiName,
        label: field.label,
        type: field.type,
        dataType: field.dataType,
        isDefault: 1,
        mandatory: field.mandatory,
        property: '{}',
        created,
      });
    }
    const options = new Map<string, { id: number; value: string }[]>();
    for (const field of def.fields) {
      const id = this.id();
      fieldIds.set(field.apiName, id);
      const property =
        field.type === 'currency'
          ? {
              field_type_properties: {
                currencylist_type: 'field_currency',
                currency_value: 'USD',
                precision_value: 2,
              },
            }
          : field.type === 'user_pick_list' || field.type === 'multi_user'
            ? { field_type_properties: { userlist_type: 'all_users' } }
            : {};
      this.insert.field.run({
        id,
        module: moduleId,
        apiName: field.apiName,
        label: field.label,
        type: field.type,
        dataType: CUSTOM_FIELD_TYPES[field.type].dataType,
        isDefault: 0,
        mandatory: field.mandatory ? 1 : 0,
        property: JSON.stringify(property),
        created,
      });
      if (field.options) {
        options.set(
          field.apiName,
          field.options.map((value, position) => {
            const optionId = this.id();
            this.insert.option.run(optionId, id, value, position + 1);
            return { id: optionId, value };
          }),
        );
      }
    }

    // The standard layout shows everything; assets also get a private "Field Kit" layout.
    const layouts: ModuleSeed['layouts'] = [];
    const layoutDefs =
      shape.apiName === 'assets'
        ? [
            { name: DEFAULT_LAYOUT_NAME, type: 'public', fields: def.fields },
            {
              name: 'Field Kit',
              type: 'private',
              fields: def.fields.filter((_, i) => i % 2 === 0),
            },
          ]
        : [{ name: DEFAULT_LAYOUT_NAME, type: 'public', fields: def.fields }];
    layoutDefs.forEach((layoutDef, layoutIndex) => {
      const layoutId = this.id();
      this.insert.layout.run(
        layoutId,
        moduleId,
        layoutDef.name,
        layoutDef.type,
        layoutIndex === 0 ? 1 : 0,
        created,
      );
      const sections = new Map<string, number>();
      DEFAULT_SECTION_NAMES.forEach((name, position) => {
        const sectionId = this.id();
        sections.set(name, sectionId);
        this.insert.section.run(sectionId, layoutId, name, position + 1);
      });
      let position = 0;
      for (const field of system) {
        this.insert.layoutField.run(
          layoutId,
          fieldIds.get(field.apiName),
          sections.get(DEFAULT_SECTION_NAMES[0]),
          ++position,
        );
      }
      for (const field of layoutDef.fields) {
        this.insert.layoutField.run(
          layoutId,
          fieldIds.get(field.apiName),
          sections.get(field.section),
          ++position,
        );
      }
      layouts.push({ id: layoutId, fields: [...layoutDef.fields] });
    });

    const statuses = def.statuses.map((status, position) => {
      const id = this.id();
      this.insert.status.run(
        id,
        moduleId,
        status.name,
        status.color,
        status.closed ? 1 : 0,
        position === 0 ? 1 : 0,
        position + 1,
      );
      return { id, closed: status.closed };
    });
    // Open statuses lead anywhere; a closed one can only be reopened to the first status.
    const transitions = new Map<number, number[]>();
    for (const from of statuses) {
      const targets = from.closed
        ? [statuses[0]!.id]
        : statuses.filter((to) => to.id !== from.id).map((to) => to.id);
      transitions.set(from.id, targets);
      for (const to of targets) this.insert.transition.run(from.id, to);
    }
    return { id: moduleId, def, layouts, statuses, transitions, options };
  }

  private seedRecords(portal: PortalSeed, count: number): void {
    const modules = MODULES.map((def) => this.seedModule(portal, def));
    let remaining = count;
    modules.forEach((module, index) => {
      const share =
        index === modules.length - 1 ? remaining : Math.round(count * module.def.weight);
      const n = Math.min(share, remaining);
      remaining -= n;
      for (let i = 0; i < n; i++) this.seedRecord(portal, module, i + 1);
    });
  }

  private seedRecord(portal: PortalSeed, module: ModuleSeed, ordinal: number): void {
    const random = this.random;
    const id = this.id();
    const layout =
      module.layouts.length > 1 && random.chance(0.1) ? module.layouts[1]! : module.layouts[0]!;
    const owner = random.pick(portal.activeUsers);
    const created = this.past(730);
    // A walk through the status graph from the default status: the record's timeline.
    const path = [module.statuses[0]!.id];
    const steps = random.int(0, 3);
    for (let i = 0; i < steps; i++) {
      path.push(random.pick(module.transitions.get(path[path.length - 1]!)!));
    }
    const statusId = path[path.length - 1]!;
    const closed = module.statuses.find((status) => status.id === statusId)!.closed;
    let at = created;
    const changes: number[] = [created];
    for (let i = 1; i < path.length; i++) {
      at = Math.min(this.anchor, at + random.int(1, 20) * 3_600_000);
      changes.push(at);
    }
    const updated = Math.max(at, Math.min(this.anchor, created + random.int(0, 90) * DAY_MS));

    const custom: Record<string, unknown> = {};
    for (const field of layout.fields) {
      if (!field.mandatory && random.chance(0.15)) continue;
      custom[field.apiName] = this.value(field, module, portal, created);
    }
    const sentences = random.int(0, 3);
    const description = Array.from({ length: sentences }, () => random.pick(SENTENCES)).join(' ');
    this.insert.entity.add(
      id,
      module.id,
      random.chance(0.8) ? random.pick(portal.projects) : null,
      layout.id,
      statusId,
      `${random.pick(module.def.adjectives)} ${random.pick(module.def.nouns)} #${ordinal}`,
      description,
      closed ? 1 : 0,
      owner,
      JSON.stringify(custom),
      this.iso(created),
      this.iso(updated),
    );
    path.forEach((status, index) => {
      this.insert.timeline.add(
        this.id(),
        id,
        index === 0 ? null : path[index - 1],
        status,
        owner,
        this.iso(changes[index]!),
      );
    });
    const comments = random.chance(0.45) ? random.int(1, 3) : 0;
    for (let i = 0; i < comments; i++) {
      const when = this.iso(Math.min(this.anchor, created + random.int(1, 60) * DAY_MS));
      this.insert.comment.add(
        this.id(),
        id,
        random.pick(COMMENT_LINES),
        random.pick(portal.activeUsers),
        when,
        when,
      );
    }
  }

  /** A realistic value of the field's type, within the spec's limits. */
  private value(
    field: SeedField,
    module: ModuleSeed,
    portal: PortalSeed,
    created: number,
  ): unknown {
    const random = this.random;
    const type: CustomFieldType = field.type;
    switch (type) {
      case 'single_line':
        return field.apiName === 'cf_ticket'
          ? `CHG-${random.int(1000, 99999)}`
          : `SN-${random.int(10_000_000, 99_999_999).toString(36).toUpperCase()}`;
      case 'multi_line':
        return Array.from({ length: random.int(1, 3) }, () => random.pick(SENTENCES)).join('\n');
      case 'pick_list':
        return random.pick(module.options.get(field.apiName)!).value;
      case 'multi_select':
        // Stored as option ids ("multi pick list = option id" in filters); shown as names.
        return random
          .sample(module.options.get(field.apiName)!, random.int(1, 3))
          .map((option) => String(option.id));
      case 'user_pick_list':
        return random.pick(portal.activeUsers);
      case 'multi_user':
        return random.sample(portal.activeUsers, random.int(1, 3));
      case 'date':
        return new Date(created + random.int(-200, 400) * DAY_MS).toISOString().slice(0, 10);
      case 'time':
        return `${String(random.int(7, 19)).padStart(2, '0')}:${random.pick(['00', '15', '30', '45'])}`;
      case 'timestamp':
        return new Date(
          Math.floor((created + random.int(0, 120) * DAY_MS) / 60_000) * 60_000,
        ).toISOString();
      case 'check_box':
        return random.chance(0.5);
      case 'currency': {
        const amount = random.int(2_000, 5_000_000) / 100;
        const code = random.pick(CURRENCIES);
        return { currency_code: code, formatted_amount: `${code} ${amount.toFixed(2)}`, amount };
      }
      case 'percentage':
        return random.int(0, 100);
      case 'number':
        return random.int(1, 500);
      case 'decimal':
        return random.int(10, 50_000) / 100;
      case 'email':
        return `${random.pick(['sales', 'support', 'billing', 'ops'])}@${random.pick(['bluefin', 'redwood', 'summit', 'ironclad'])}.example`;
      case 'phone':
        return `+1 555 ${random.int(100, 999)} ${random.int(1000, 9999)}`;
      case 'url':
        return `https://docs.example.com/${field.apiName.replace('cf_', '')}/${random.int(100, 999)}`;
    }
  }
}
