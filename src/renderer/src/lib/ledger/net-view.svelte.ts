// Whether 首页 and 统计 count 待报销 spending as the user's own. Off by default: money an
// employer pays back is not what the household spent. One switch for both pages, kept across
// restarts in the window's storage (a view preference, not part of the books, so it never syncs).
const KEY = 'suikouji.view.includeReimbursed';

function stored(): boolean {
  try {
    return globalThis.localStorage?.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

class NetView {
  includeReimbursed = $state(stored());

  set(include: boolean): void {
    this.includeReimbursed = include;
    try {
      globalThis.localStorage?.setItem(KEY, include ? '1' : '0');
    } catch {
      // Storage unavailable (a locked-down profile): the switch still works for this session.
    }
  }

  /** The option for monthSummary/periodStats: absent when off, so the default query stays as it was. */
  get option(): { includeReimbursed?: true } {
    return this.includeReimbursed ? { includeReimbursed: true } : {};
  }
}

export const netView = new NetView();
