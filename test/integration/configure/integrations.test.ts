/**
 * Integration fields browsed through the engine (read-only, online) against the emulator's own
 * answers: every service, each of its modules and each module's fields, named as the service
 * names them; signed out, a read is refused in words.
 */
import { describe, expect, it } from 'vitest';
import { api, grantToken } from '../../support/emulator';
import { call, refusal, setup } from '../backups/backupSession';

describe('integration fields', () => {
  it('lists services, modules and fields as the service does', async () => {
    const { engine, portalId, emulator } = await setup({ records: 10 });
    const token = grantToken(emulator);
    const base = emulator.dcs.us!.api;
    const raw = async (path: string) =>
      (await api(base, token, 'GET', `/api/v3/portal/${portalId}/integration-field/service${path}`))
        .body;
    const services = await call<{ id: string; name: string }[]>(
      engine,
      'configure.integrationServices',
      {
        portalId,
      },
    );
    const theirs = (await raw('?page=1&per_page=200')).services as { id: string; name: string }[];
    expect(services.map((s) => [s.id, s.name])).toEqual(theirs.map((s) => [String(s.id), s.name]));
    expect(services.length).toBeGreaterThan(0);
    let fieldsSeen = 0;
    for (const service of services) {
      const modules = await call<{ id: string; apiName: string }[]>(
        engine,
        'configure.integrationModules',
        { portalId, serviceId: service.id },
      );
      const theirModules = (await raw(`/${service.id}/modules?page=1&per_page=200`)).modules as {
        id: string;
        api_name: string;
      }[];
      expect(modules.map((m) => m.apiName)).toEqual(theirModules.map((m) => m.api_name));
      for (const module of modules) {
        const fields = await call<{ apiName: string }[]>(engine, 'configure.integrationFields', {
          portalId,
          serviceId: service.id,
          moduleId: module.id,
        });
        const theirFields = (
          await raw(`/${service.id}/projects/${module.id}/fields?page=1&per_page=200`)
        ).fields as { api_name: string }[];
        expect(fields.map((f) => f.apiName)).toEqual(theirFields.map((f) => f.api_name));
        fieldsSeen += fields.length;
      }
    }
    expect(fieldsSeen).toBeGreaterThan(0);
    expect(
      await refusal(engine, 'configure.integrationServices', { portalId: '99999999' }),
    ).toMatch(/signed out|sign in/);
    engine.close();
  });
});
