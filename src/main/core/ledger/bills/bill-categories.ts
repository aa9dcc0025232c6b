// The category a bill's row lands in: the user's own choice for that merchant first (learned
// when they changed an imported row's category), then the bill's own category, then the
// merchant's and item's words as a segmenter cuts them, then 其他.
import { OTHER_CATEGORY } from '@shared/categories';
import type { TransactionType } from '@shared/domain';
import type { CategoryCandidate } from '../../categories/index';
import { merchantOf, type BillFormat, type BillLine } from './layouts';
import { merchantKey } from './table';

export interface Categorizer {
  categories: readonly CategoryCandidate[];
  /** merchantKey(type, merchant) → the category the user chose. */
  memory: ReadonlyMap<string, string>;
  /** The category whose word (a whole word) the texts use, most specific text first. */
  words: (texts: readonly string[], type: TransactionType) => CategoryCandidate | undefined;
}

/** Bill category names (Alipay's and JD's) for spending that are not one of ours by name. */
const EXPENSE_ALIASES: Record<string, string> = {
  日用百货: '购物',
  服饰装扮: '购物',
  服饰内衣: '购物',
  数码电器: '购物',
  美容美发: '购物',
  母婴亲子: '购物',
  家居家装: '购物',
  网购: '购物',
  其他网购: '购物',
  食品酒饮: '餐饮',
  爱车养车: '交通',
  充值缴费: '账单',
  生活服务: '账单',
  文化休闲: '娱乐',
  休闲娱乐: '娱乐',
  运动户外: '娱乐',
  医疗健康: '医疗',
  教育培训: '教育',
  住房物业: '住房',
  酒店旅游: '旅行',
  转账红包: '人情往来',
  亲友代付: '人情往来',
  公益捐赠: '人情往来',
  // WeChat's kinds of trade that are gifts and transfers to people.
  微信红包: '人情往来',
  转账: '人情往来',
  群收款: '人情往来',
  亲属卡交易: '人情往来',
  赞赏码: '人情往来',
};

/** Bill categories that say nothing about what was bought. */
const VAGUE = /^(其他|其它|退款|商户消费|扫二维码付款|二维码收款|先享后付|支付|收入|商业服务)$/;

export function chooseCategory(l: BillLine, type: TransactionType, format: BillFormat, c: Categorizer): string {
  const merchant = merchantOf(l, format);
  const remembered = merchant ? c.memory.get(merchantKey(type, merchant)) : undefined;
  if (remembered && c.categories.some((x) => x.type === type && x.name === remembered)) return remembered;
  const own = [l.category, l.kind].flatMap((s) => s.split(/\s+/)).filter((s) => s && !VAGUE.test(s));
  for (const name of own) {
    const hit = byName(name, type, c.categories);
    if (hit) return hit;
  }
  const texts = [l.item.replace(/^退款[-－:：\s]*/, ''), l.merchant, ...own].filter(Boolean);
  return c.words(texts, type)?.name ?? fallback(type, c.categories);
}

/** A bill's category name onto the user's: the same name, one that contains ours, or an alias. */
function byName(name: string, type: TransactionType, categories: readonly CategoryCandidate[]): string | undefined {
  const same = categories.filter((x) => x.type === type && x.name !== OTHER_CATEGORY);
  const exact = same.find((x) => x.name === name);
  if (exact) return exact.name;
  const alias = type === 'EXPENSE' ? EXPENSE_ALIASES[name] : undefined;
  if (alias && same.some((x) => x.name === alias)) return alias;
  // 餐饮美食 → 餐饮, 微信红包 → 红包: a bill's category names ours and more (longest first).
  return [...same].sort((a, b) => b.name.length - a.name.length).find((x) => x.name.length >= 2 && name.includes(x.name))?.name;
}

function fallback(type: TransactionType, categories: readonly CategoryCandidate[]): string {
  const same = categories.filter((x) => x.type === type);
  return (same.find((x) => x.name === OTHER_CATEGORY) ?? same[0])?.name ?? OTHER_CATEGORY;
}
