// EXPENSE, INCOME or TRANSFER from the words of one item. Red packets go by direction:
// 收到/抢到红包 is income (红包), 发红包/给…红包 is an expense (人情往来).
import type { TransactionType } from '../../../shared/domain';

export interface TypeReading {
  type: TransactionType | null;
  /** A category the type words already imply (红包, 人情往来, 转账). */
  category: string | null;
}

const RED_PACKET_OUT =
  /发(?:了|个|一个|出)*(?:[^，,。；;]{0,4})红包|给[^，,。；;]{0,8}红包|包(?:了)?(?:个|一个)?红包|送(?:了)?(?:个|一个)?红包|随(?:了)?(?:个|一个)?红包|红包发/;
const RED_PACKET_IN =
  /给我(?:发|包)[^，,。；;]{0,4}红包|发给我[^，,。；;]{0,4}红包|红包发给我|收(?:到|了)?[^，,。；;]{0,4}红包|抢(?:到|了)?[^，,。；;]{0,4}红包|领(?:到|了)?[^，,。；;]{0,4}红包|得(?:到|了)[^，,。；;]{0,4}红包|红包(?:收|到账|进账)/;
const INCOMING_TRANSFER = /(?:收到|收了|到账|进账)[^，,。；;]{0,8}转账|转账[^，,。；;]{0,4}(?:到账|进账)/;
const TRANSFER =
  /打钱|汇款|汇了|汇给|借出|借入|给[^，,。；;]{1,6}打了?(?=[0-9零一二两三四五六七八九十])|转账|转给|转到|转入|转出|转了|给[^，,。；;]{1,6}转|还钱|还款|还了|还给|还我|借给|借钱|借了|存钱|存了|存入|取钱|取现|取[了出]?[^，,。；;]{0,4}现金|提现|还信用卡|还花呗|还白条/;
const INCOME =
  /收入|收到|收了|收款|进账|到账|入账|报销|退款|退钱|退了|退回|返现|返利|赚了|赚到|挣了|挣到|利息|收益|卖了|卖掉|退税|补贴|津贴|收租|回款|结算了|中了|中奖|捡到|捡了|发工资|发奖金|发了奖金|发薪|(?<!外)卖(?!部|场|家|点|相|萌|菜|票)/;

/** Reads the type words only; a null type means "decide from the category, else EXPENSE". */
export function readTypeWords(text: string): TypeReading {
  if (text.includes('红包')) {
    if (RED_PACKET_IN.test(text)) return { type: 'INCOME', category: '红包' };
    if (RED_PACKET_OUT.test(text)) return { type: 'EXPENSE', category: '人情往来' };
  }
  if (INCOMING_TRANSFER.test(text)) return { type: 'INCOME', category: null };
  if (TRANSFER.test(text)) return { type: 'TRANSFER', category: '转账' };
  if (INCOME.test(text)) return { type: 'INCOME', category: null };
  return { type: null, category: null };
}

/** Words that name a type outright in a correction (改为收入, 不是支出). */
export const TYPE_NAMES: readonly { word: string; type: TransactionType }[] = [
  { word: '收入', type: 'INCOME' },
  { word: '进账', type: 'INCOME' },
  { word: '入账', type: 'INCOME' },
  { word: '支出', type: 'EXPENSE' },
  { word: '开支', type: 'EXPENSE' },
  { word: '花销', type: 'EXPENSE' },
  { word: '消费', type: 'EXPENSE' },
  { word: '花费', type: 'EXPENSE' },
  { word: '转账', type: 'TRANSFER' },
  { word: '发出去', type: 'EXPENSE' },
  { word: '送出去', type: 'EXPENSE' },
  { word: '付出去', type: 'EXPENSE' },
  { word: '别人给的', type: 'INCOME' },
  { word: '别人给我的', type: 'INCOME' },
  { word: '别人送的', type: 'INCOME' },
  { word: '给别人的', type: 'EXPENSE' },
  { word: '我发的', type: 'EXPENSE' },
  { word: '发出的', type: 'EXPENSE' },
  { word: '花出去', type: 'EXPENSE' },
  { word: '发给我的', type: 'INCOME' },
  { word: '给我的', type: 'INCOME' },
  { word: '别人发的', type: 'INCOME' },
  { word: '收回来', type: 'INCOME' },
  { word: '收来的', type: 'INCOME' },
  { word: '收的', type: 'INCOME' },
  { word: '收到的', type: 'INCOME' },
];
