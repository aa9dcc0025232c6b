// The words of an item without amount, date and filler: 昨天打车花了28块5 → 打车.
import { cutSpans, isPunctuation, type Span } from './normalize';

const ANYWHERE = [
  '花费了',
  '花了',
  '花费',
  '一共',
  '总共',
  '共计',
  '合计',
  '大概',
  '大约',
  '差不多',
  '左右',
  '不是',
  '已经',
  '早上',
  '上午',
  '中午',
  '下午',
  '晚上',
  '傍晚',
  '凌晨',
  '刚才',
  '刚刚',
  '块钱',
  '人民币',
];
const LEADING = [
  '帮我记一下',
  '帮我记一笔',
  '帮我记',
  '记一笔',
  '记一下',
  '记录一下',
  '记账',
  '还有一笔',
  '再加一笔',
  '再记一笔',
  '加一笔',
  '另外',
  '刚',
  '支出',
  '收入',
  '开销',
  '花销',
  '收到了',
  '收到',
  '付了',
  '支付了',
  '付款',
  '我们',
  '我',
  '嗯',
  '啊',
  '呃',
  '额',
  '哦',
  '那个',
  '就是',
  '然后',
  '又',
  '的',
  '了',
  '是',
  '在',
  '用',
];
const TRAILING = [
  '到账了',
  '到账',
  '到了',
  '花了',
  '用了',
  '付了',
  '交了',
  '消费了',
  '消费',
  '支付了',
  '支付',
  '付款',
  '付',
  '收到了',
  '收到',
  '收了',
  '充了',
  '送了',
  '的钱',
  '是',
  '为',
  '了',
  '的',
  '吧',
  '啊',
  '呢',
  '呀',
];

// Longest first, so 支付了 goes before 付了 would leave 支.
LEADING.sort((a, b) => b.length - a.length);
TRAILING.sort((a, b) => b.length - a.length);

function stripEdges(text: string, trailing = true): string {
  let s = text;
  for (let changed = true; changed && s.length > 0;) {
    changed = false;
    for (const w of LEADING) {
      if (s.startsWith(w) && s.length > w.length) {
        s = s.slice(w.length);
        changed = true;
      }
    }
    if (!trailing) continue;
    for (const w of TRAILING) {
      // A one-character particle stays when it is half of a two-character word (打的).
      if (s.endsWith(w) && s.length > w.length && (w.length > 1 || s.length > 2)) {
        s = s.slice(0, -w.length);
        changed = true;
      }
    }
  }
  return s;
}

// 交了两千五的房租 → 交了的房租 once the amount is cut: the paying verb belongs to the amount.
const PAID_OF = /^[交付花充缴给买]了的(?=.)/;

export function describe(text: string, claimed: readonly Span[]): string {
  // Edge words go first so a filler never fuses with the item (帮我记一下午饭 is not 下午).
  let s = stripEdges(cutSpans(text, claimed), false).replace(PAID_OF, '');
  for (const w of ANYWHERE) if (s.includes(w)) s = s.split(w).join('');
  // Keep the words, drop punctuation and symbols left between them.
  let words = '';
  for (const ch of s) if (!isPunctuation(ch) && ch !== '¥' && ch !== '￥' && ch !== '$') words += ch;
  const out = stripEdges(words);
  return out.length === 1 && /[了的是吧啊呢呀花付嗯]/.test(out) ? '' : out;
}
