// Hash routes: the main window shows one page at a time; the tray's quick-entry window
// loads the same bundle at #/quick and renders only that page, the recording indicator at #/indicator.
import { MAIN_ROUTES, type MainRoute } from '@shared/ipc/app';

export type Route = Exclude<MainRoute, 'new'> | 'quick' | 'indicator';
export const ROUTES: readonly Route[] = [...MAIN_ROUTES.filter((r): r is Exclude<MainRoute, 'new'> => r !== 'new'), 'quick', 'indicator'];

const DEFAULT_HASH = '#/home';

function pathOf(hash: string): string {
  return hash.replace(/^#\/?/, '').split('?')[0] ?? '';
}

function fromHash(hash: string): { route: Route; params: URLSearchParams } {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?');
  const route = (ROUTES as readonly string[]).includes(path) ? (path as Route) : 'home';
  return { route, params: new URLSearchParams(query) };
}

class Router {
  current = $state(fromHash(''));
  /** A '#/new' (tray, app menu) not yet answered: the window opens the 记一笔 form over its page and clears it. */
  entryRequested = $state(false);
  /** The page's hash, put back after a '#/new'. */
  #pageHash = DEFAULT_HASH;

  constructor() {
    this.#take(location.hash);
    // The event's own URL (when it has one): two quick hash changes must not both read the second.
    window.addEventListener('hashchange', (event) => this.#take(event.newURL ? new URL(event.newURL).hash : location.hash));
  }

  go(route: Route, params?: Record<string, string>): void {
    const query = params ? `?${new URLSearchParams(params)}` : '';
    location.hash = `#/${route}${query}`;
  }

  #take(hash: string): void {
    if (pathOf(hash) === 'new') {
      this.entryRequested = true;
      // Not a page: the window keeps showing what it showed (home on a fresh window).
      history.replaceState(history.state, '', this.#pageHash);
      return;
    }
    this.#pageHash = hash || DEFAULT_HASH;
    this.current = fromHash(hash);
  }
}

export const router = new Router();
