import type { AppInfo } from '../../../shared/ipc/index';
import type { AreaHandlers } from './handlers';

export interface AppHandlerDeps {
  appInfo: () => AppInfo;
}

export function createAppHandlers(deps: AppHandlerDeps): AreaHandlers<'appInfo'> {
  return {
    appInfo: () => deps.appInfo(),
  };
}
