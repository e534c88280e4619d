/**
 * Secrets in one JSON file readable only by its owner. Used for the embedded demo portal alone:
 * its tokens open nothing but the local emulator, whose own database in the same folder already
 * holds them in clear text, so the OS keychain would protect nothing and the demo works on
 * machines without one. Never used for any other service.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SecretStore } from './secretStore';

export class FileSecretStore implements SecretStore {
  constructor(private readonly file: string) {}

  private read(): Record<string, string> {
    try {
      return JSON.parse(readFileSync(this.file, 'utf8')) as Record<string, string>;
    } catch {
      return {};
    }
  }

  private write(entries: Record<string, string>): void {
    mkdirSync(path.dirname(this.file), { recursive: true });
    const temp = `${this.file}.tmp`;
    writeFileSync(temp, JSON.stringify(entries), { mode: 0o600 });
    renameSync(temp, this.file);
  }

  private static key(service: string, account: string): string {
    return `${service}/${account}`;
  }

  ensureAvailable(): Promise<void> {
    return Promise.resolve();
  }

  async getPassword(service: string, account: string): Promise<string | null> {
    return this.read()[FileSecretStore.key(service, account)] ?? null;
  }

  async setPassword(service: string, account: string, password: string): Promise<void> {
    this.write({ ...this.read(), [FileSecretStore.key(service, account)]: password });
  }

  async deletePassword(service: string, account: string): Promise<boolean> {
    const entries = this.read();
    const key = FileSecretStore.key(service, account);
    if (!Object.hasOwn(entries, key)) return false;
    delete entries[key];
    this.write(entries);
    return true;
  }
}
