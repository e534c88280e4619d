import type Database from 'better-sqlite3';

/**
 * Buffers rows and inserts them many per statement: for bulk loads the per-call cost of a
 * single-row INSERT (binding, stepping, resetting) outweighs SQLite's own work. Call flush() at
 * the end, inside the same transaction.
 */
export class BatchInsert {
  private readonly rows: unknown[] = [];
  /** One prepared statement per row count, made when first needed. */
  private readonly statements = new Map<number, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly table: string,
    private readonly columns: readonly string[],
    /** Batches whose rows this table's foreign keys point at: written before each batch here. */
    private readonly dependsOn: readonly BatchInsert[] = [],
    private readonly batchRows = 100,
  ) {}

  add(...values: unknown[]): void {
    if (values.length !== this.columns.length) {
      throw new Error(`Expected ${this.columns.length} values, got ${values.length}.`);
    }
    this.rows.push(...values);
    if (this.rows.length === this.columns.length * this.batchRows) this.flush();
  }

  flush(): void {
    if (this.rows.length === 0) return;
    for (const parent of this.dependsOn) parent.flush();
    this.statement(this.rows.length / this.columns.length).run(this.rows);
    this.rows.length = 0;
  }

  private statement(rowCount: number): Database.Statement {
    let statement = this.statements.get(rowCount);
    if (!statement) {
      const tuple = `(${this.columns.map(() => '?').join(', ')})`;
      statement = this.db.prepare(
        `INSERT INTO ${this.table} (${this.columns.join(', ')}) VALUES ` +
          Array.from({ length: rowCount }, () => tuple).join(', '),
      );
      this.statements.set(rowCount, statement);
    }
    return statement;
  }
}
