// 首页's month summary, net of refunds: Ledger.monthSummary against raw-net.ts's one statement
// for the per-category net sums (see there), the three type totals added up from its lines.
import type { MonthSummary } from '@shared/ipc/index';
import type { PairFactory } from './pair';
import { rawNet, sumOf } from './raw-net';

const monthSummary: PairFactory = ({ ledger, db, month }) => {
  const net = rawNet(db);
  return {
    name: 'ratios.monthSummary',
    project: () => ledger.monthSummary(month),
    raw: (): MonthSummary => {
      const byCategory = net.categoryTotals(`${month}-01`, `${month}-31`);
      return {
        month,
        expenseFen: sumOf(byCategory, 'EXPENSE'),
        incomeFen: sumOf(byCategory, 'INCOME'),
        transferFen: sumOf(byCategory, 'TRANSFER'),
        byCategory,
      };
    },
  };
};

export default monthSummary;
