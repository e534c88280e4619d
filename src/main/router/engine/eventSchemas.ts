/**
 * Each event's JSON Schema, kept as versions: inferred from samples (typed in, posted to a capture
 * URL, or what a default publisher sends), changed by hand edits, and the data validated against
 * the newest one. The one writer of schema versions and the owner of the validator (one Ajv
 * compile per distinct schema text), so configuration and intake both go through here.
 */
import { randomBytes } from 'node:crypto';
import {
  CAPTURE_VALIDITY_MS,
  MAX_SCHEMA_KEYS,
  type SchemaVersionView,
} from '../../../shared/ipc/areas/router';
import { isPlainObject, requireEventConfig, type RouterContext } from './routerContext';
import { RouterInputError } from './routerErrors';
import type { EventConfigRow, PublisherRow } from '../store/routerRows';
import { mergeSample, snapshotToSchema } from '../schema/inferenceSnapshot';
import { sampleProblem } from '../schema/sampleProblem';
import { schemaKeyCount } from '../schema/schemaKeyCount';
import {
  applySchemaEdits,
  readStoredEdits,
  schemaEditProblem,
  withRequiredChoices,
  type RequiredChoice,
  type SchemaEdit,
} from '../schema/schemaEdits';
import { schemaPaths } from '../schema/schemaPaths';
import { sampleKeyPaths } from '../../../shared/routerSchema/sampleKeyPaths';
import { SchemaValidator } from '../schema/schemaValidator';

type SampleSource = 'sample' | 'capture' | 'publisher';

/** A key a hand edit adds to an event's schema (the condition builder's "add key"). */
export type SchemaKeyAddition = Omit<Extract<SchemaEdit, { op: 'add' }>, 'op'>;

export class EventSchemas {
  private readonly validator = new SchemaValidator();

  constructor(private readonly context: RouterContext) {}

  schemaVersions(eventConfigId: string): SchemaVersionView[] {
    requireEventConfig(this.context.config, eventConfigId);
    return this.context.repository.listSchemaVersions(eventConfigId).map((row) => ({
      version: row.version,
      schema: JSON.parse(row.schema) as Record<string, unknown>,
      source: row.source,
      createdAt: row.created_at,
    }));
  }

  /**
   * A new schema version from a sample (merged into the inference so far when `merge`). With
   * `required`, the sample's keys listed there become required and its other keys optional;
   * without, the required choices stay as they were (a new key is optional).
   */
  setSample(
    eventConfigId: string,
    sample: unknown,
    merge: boolean,
    { source = 'sample', required }: { source?: SampleSource; required?: readonly string[] } = {},
  ): SchemaVersionView {
    requireEventConfig(this.context.config, eventConfigId);
    if (!isPlainObject(sample)) {
      throw new RouterInputError(
        'A sample must be a JSON object (the event\'s "data"); the schema was not changed.',
      );
    }
    this.context.repository.transaction(() =>
      this.writeSample(eventConfigId, sample, merge, source, required),
    );
    this.context.changed(true, false);
    return this.schemaVersions(eventConfigId)[0] as SchemaVersionView;
  }

  /**
   * Stores a sample and the schema inferred from it (with the hand edits applied), inside the
   * caller's transaction. Returns whether that made a new version.
   */
  writeSample(
    id: string,
    sample: unknown,
    merge: boolean,
    source: SampleSource,
    required?: readonly string[],
  ): boolean {
    const { repository } = this.context;
    const row = repository.getEventConfig(id) as EventConfigRow;
    const inference = mergeSample(sample, merge ? row.inference : null);
    const stored = this.storedEdits(row);
    const edits = required ? withRequiredChoices(stored, sampleChoices(sample, required)) : stored;
    repository.updateSchemaState(id, JSON.stringify(sample), inference, edits);
    return this.writeSchemaVersion(
      id,
      applySchemaEdits(snapshotToSchema(inference), edits),
      source,
    );
  }

  /**
   * Default publishers need no schema set-up (spec 000): their schema follows what they send. A
   * sample the schema cannot take is logged; the event is still recorded and routed.
   */
  followPublisher(publisher: PublisherRow, config: EventConfigRow, data: unknown): void {
    try {
      const changed = this.context.repository.transaction(() =>
        this.writeSample(config.id, data, config.inference !== null, 'publisher'),
      );
      if (changed) this.context.changed(true, false);
    } catch (error) {
      if (!(error instanceof RouterInputError)) throw error;
      this.context.log?.error(
        `The schema of ${publisher.name}'s ${config.api_name} was not updated from event data`,
        error,
      );
    }
  }

  /**
   * The event's hand edits, without any stored before issue 14 that would write through
   * `__proto__` (they are left out of the next write of the row, so this is reported once).
   */
  private storedEdits(row: EventConfigRow): SchemaEdit[] {
    const { edits, dropped } = readStoredEdits(row.edits);
    if (dropped > 0) {
      this.context.log?.error(
        `Dropped ${dropped} stored hand edit(s) of event ${row.id}'s schema: their key paths named "__proto__", which would have changed every object of the engine. The other edits were kept.`,
        null,
      );
    }
    return edits;
  }

  /** Stores a schema as the next version unless it equals the current one. */
  private writeSchemaVersion(
    id: string,
    schema: Record<string, unknown>,
    source: SchemaVersionView['source'],
  ): boolean {
    if (schemaKeyCount(schema, MAX_SCHEMA_KEYS) > MAX_SCHEMA_KEYS) {
      throw new RouterInputError(
        `The schema would declare more than ${MAX_SCHEMA_KEYS} keys (nested ones included), the most a schema may. The schema was not changed; remove keys you do not route on.`,
      );
    }
    const latest = this.context.repository.latestSchema(id);
    const text = JSON.stringify(schema);
    if (latest && latest.schema === text) return false;
    this.context.repository.insertSchemaVersion({
      eventConfigId: id,
      version: (latest?.version ?? 0) + 1,
      schema: text,
      source,
      createdAt: this.context.clock.now(),
    });
    this.context.config.invalidate();
    return true;
  }

  /**
   * Keys added, removed, or made required or optional by hand. A key made required or optional
   * must be one the schema has (once added, it can be).
   */
  editSchemaKeys(
    eventConfigId: string,
    add: readonly SchemaKeyAddition[],
    remove: readonly string[],
    require: readonly RequiredChoice[] = [],
  ): SchemaVersionView {
    const row = requireEventConfig(this.context.config, eventConfigId);
    if (add.length === 0 && remove.length === 0 && require.length === 0) {
      throw new RouterInputError(
        'Name at least one key to add, remove, or make required or optional; the schema was not changed.',
      );
    }
    const problems = [
      ...remove,
      ...add.map((key) => key.path),
      ...require.map((c) => c.path),
    ].flatMap((path) => schemaEditProblem(path) ?? []);
    if (problems.length > 0) {
      throw new RouterInputError(`${problems.join('; ')}. The schema was not changed.`);
    }
    const latest = this.context.config.latestSchema(eventConfigId);
    const known = new Set(latest ? schemaPaths(latest.schema).map((key) => key.path) : []);
    const unknown = require.filter((choice) => !known.has(choice.path)).map((c) => c.path);
    if (unknown.length > 0) {
      throw new RouterInputError(
        `${unknown.join(', ')} ${unknown.length === 1 ? 'is not a key' : 'are not keys'} of the schema${latest ? ` (version ${latest.version})` : ''}, so ${unknown.length === 1 ? 'it' : 'they'} cannot be made required or optional. The schema was not changed; add the key first.`,
      );
    }
    const edits: SchemaEdit[] = withRequiredChoices(
      [
        ...this.storedEdits(row),
        ...remove.map((path): SchemaEdit => ({ op: 'remove', path })),
        ...add.map((key): SchemaEdit => ({ op: 'add', ...key })),
      ],
      require,
    );
    const base = row.inference
      ? snapshotToSchema(row.inference)
      : { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: {} };
    this.context.repository.transaction(() => {
      this.context.repository.updateSchemaState(eventConfigId, null, row.inference, edits);
      this.writeSchemaVersion(eventConfigId, applySchemaEdits(base, edits), 'edit');
    });
    this.context.changed(true, false);
    return this.schemaVersions(eventConfigId)[0] as SchemaVersionView;
  }

  validateSample(
    eventConfigId: string,
    sample: unknown,
  ): { valid: boolean; version: number | null; errors: string[] } {
    requireEventConfig(this.context.config, eventConfigId);
    // The same bounds as a sample that becomes a schema: validating a larger one would hold the
    // engine's thread for as long as inferring it would have.
    const problem = sampleProblem(sample);
    if (problem) throw new RouterInputError(`${problem}. Nothing was validated.`);
    const { version, errors } = this.validate(eventConfigId, sample);
    return { valid: errors.length === 0, version, errors };
  }

  /** Data checked against the event's newest schema version (none yet: no errors). */
  validate(eventConfigId: string, data: unknown): { version: number | null; errors: string[] } {
    const schema = this.context.config.latestSchema(eventConfigId);
    if (!schema) return { version: null, errors: [] };
    return {
      version: schema.version,
      errors: this.validator.validate(schema.schema, data, `${eventConfigId}/${schema.version}`),
    };
  }

  /** A capture token valid for 15 (virtual) minutes; the ingress turns it into a URL. */
  startCapture(eventConfigId: string): { token: string; expiresAt: number; nowMs: number } {
    requireEventConfig(this.context.config, eventConfigId);
    const token = randomBytes(16).toString('hex');
    const nowMs = this.context.clock.now();
    const expiresAt = nowMs + CAPTURE_VALIDITY_MS;
    this.context.repository.insertCapture({ token, eventConfigId, expiresAt });
    return { token, expiresAt, nowMs };
  }

  /** What the capture URL answers to a posted body. */
  capture(token: string, body: unknown): { status: number; body: Record<string, unknown> } {
    const { repository } = this.context;
    const row = repository.getCapture(token);
    if (!row) {
      return {
        status: 404,
        body: { error: "No such capture URL. Start a capture from the event's schema to get one." },
      };
    }
    const now = this.context.clock.now();
    if (now >= row.expires_at) {
      return {
        status: 410,
        body: {
          error: `This capture URL expired at ${new Date(row.expires_at).toISOString()} (capture URLs are valid for 15 minutes). Nothing was captured; start a new capture from the event's schema to get a fresh URL.`,
        },
      };
    }
    if (!isPlainObject(body)) {
      return {
        status: 400,
        body: {
          error:
            'The captured body must be a JSON object (the event\'s "data"). Nothing was captured.',
        },
      };
    }
    const hasInference = Boolean(repository.getEventConfig(row.event_config_id)?.inference);
    try {
      repository.transaction(() => {
        this.writeSample(row.event_config_id, body, hasInference, 'capture');
        repository.countCapture(token);
      });
    } catch (error) {
      if (!(error instanceof RouterInputError)) throw error;
      return { status: 400, body: { error: `${error.message} Nothing was captured.` } };
    }
    this.context.changed(true, false);
    const latest = this.context.config.latestSchema(row.event_config_id);
    return {
      status: 200,
      body: {
        captured: true,
        version: latest?.version ?? null,
        expires_in_ms: Math.max(0, row.expires_at - now),
      },
    };
  }
}

/**
 * One required choice for every key of the sample: ticked (in `required`) or not. A ticked path
 * the sample does not have is refused (the user ticked from the sample's own list).
 */
function sampleChoices(sample: unknown, required: readonly string[]): RequiredChoice[] {
  const { paths } = sampleKeyPaths(sample);
  const present = new Set(paths);
  const missing = required.filter((path) => !present.has(path));
  if (missing.length > 0) {
    throw new RouterInputError(
      `${missing.join(', ')} ${missing.length === 1 ? 'is not a key' : 'are not keys'} of the sample (nested keys are written as customer.email), so ${missing.length === 1 ? 'it' : 'they'} cannot be required. The schema was not changed; tick only keys the sample has.`,
    );
  }
  const ticked = new Set(required);
  return paths.map((path) => ({ path, required: ticked.has(path) }));
}
