import type { AppInfo } from '../../shared/ipc/contract';
import type { Handlers } from '../bridge/dispatcher';

export function appHandlers(info: () => AppInfo): Pick<Handlers, 'app.info'> {
  return { 'app.info': () => info() };
}
