// The 统计 page for one month (its one call, periodStats by day, no tag): Ledger.periodStats
// against raw-net.ts's two statements — the per-category net sums and the zero-filled daily
// trend — with the totals added up from the lines and the lines rolled up under their parents.
import type { PeriodStats } from '@shared/ipc/ledger';
import type { PairFactory } from './pair';
import { rawNet, rollUpRaw, sumOf } from './raw-net';

const statsMonth: PairFactory = ({ ledger, db, month }) => {
  const net = rawNet(db);
  const from = `${month}-01`;
  const last = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate();
  const to = `${month}-${last}`;
  return {
    name: 'ratios.statsMonth',
    project: () => ledger.periodStats({ from, to, granularity: 'day' }),
    raw: (): PeriodStats => {
      const byCategory = net.categoryTotals(from, to);
      const expenseFen = sumOf(byCategory, 'EXPENSE');
      const incomeFen = sumOf(byCategory, 'INCOME');
      let count = 0;
      for (const l of byCategory) count += l.count;
      return {
        from,
        to,
        expenseFen,
        incomeFen,
        transferFen: sumOf(byCategory, 'TRANSFER'),
        balanceFen: incomeFen - expenseFen,
        count,
        byCategory,
        byParent: rollUpRaw(byCategory),
        trend: net.dailyTrend(from, to),
      };
    },
  };
};

export default statsMonth;
