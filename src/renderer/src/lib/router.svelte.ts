// Hash routes: the main window shows one page at a time; the tray's quick-entry window
// loads the same bundle at #/quick and renders only that page, the recording indicator at #/indicator.

export const ROUTES = ['session', 'ledger', 'stats', 'categories', 'settings', 'quick', 'indicator'] as const;
export type Route = (typeof ROUTES)[number];

function fromHash(hash: string): { route: Route; params: URLSearchParams } {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?');
  const route = (ROUTES as readonly string[]).includes(path) ? (path as Route) : 'session';
  return { route, params: new URLSearchParams(query) };
}

class Router {
  current = $state(fromHash(location.hash));

  constructor() {
    window.addEventListener('hashchange', () => (this.current = fromHash(location.hash)));
  }

  go(route: Route, params?: Record<string, string>): void {
    const query = params ? `?${new URLSearchParams(params)}` : '';
    location.hash = `#/${route}${query}`;
  }
}

export const router = new Router();
