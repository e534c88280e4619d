/**
 * The product's built-in modules (projects, phases, tasklists, tasks, issues) are in the mirror's
 * module list, but the API's record endpoints are for custom modules ("Custom-module records"),
 * so no sync ever brings their records: the workspace says so instead of listing them as empty.
 */
import type { RecordsModule } from '../../../../shared/ipc/areas/records';

/** The one sentence that says why, wherever a built-in module is shown. */
export const BUILT_IN_WHY =
  "The service's record endpoints serve custom modules only, so no sync brings records of the built-in ones.";

/** Custom modules (listed with their records) and built-in ones (named, never listed as empty). */
export function splitModules(modules: readonly RecordsModule[]): {
  custom: RecordsModule[];
  builtIn: RecordsModule[];
} {
  return {
    custom: modules.filter((m) => !m.builtIn),
    builtIn: modules.filter((m) => m.builtIn),
  };
}
