// The category a bill's row lands in. The user's own choice for that merchant comes first
// (learned when they changed an imported row's category). Then the bill's evidence, weighed
// together: its own category where that names what was bought (Alipay's 餐饮美食, JD's 数码电器);
// else the whole words of the item, the merchant and the note (a 美团外卖 order filed under
// 生活服务 is 餐饮 by its 外卖; a transfer whose note says 房租 is 住房); else what a category
// or kind that says too little still suggests (JD's 网购 is 购物, a red packet 人情往来); then 其他.
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

/** Bill categories (Alipay's and JD's) that say what was bought and are not one of ours by name. */
const EXPENSE_ALIASES: Record<string, string> = {
  日用百货: '购物',
  服饰装扮: '购物',
  服饰内衣: '购物',
  数码电器: '购物',
  美容美发: '购物',
  母婴亲子: '购物',
  家居家装: '购物',
  食品酒饮: '餐饮',
  爱车养车: '交通',
  充值缴费: '账单',
  文化休闲: '娱乐',
  休闲娱乐: '娱乐',
  运动户外: '娱乐',
  医疗健康: '医疗',
  教育培训: '教育',
  住房物业: '住房',
  酒店旅游: '旅行',
  公益捐赠: '人情往来',
  // WeChat's: paying for what a relative buys with the card you gave them.
  亲属卡交易: '人情往来',
};

/**
 * Categories and kinds of trade that say too little to decide, each with the categories it
 * suggests (the first the book has) when the item, merchant and note say nothing: 网购 is
 * anything sold online, and money to a person is for whatever its note says — 房租 is 住房 —
 * or else a gift. A red packet goes to the book's 红包 where it has one.
 */
const SUGGESTS: Record<string, readonly string[]> = {
  网购: ['购物'],
  其他网购: ['购物'],
  转账: ['人情往来'],
  转账红包: ['红包', '人情往来'],
  微信红包: ['红包', '人情往来'],
  群收款: ['人情往来'],
  赞赏码: ['人情往来'],
  亲友代付: ['人情往来'],
};

/** Bill categories and kinds that say nothing about what was bought. */
const VAGUE = /^(其他|其它|退款|商户消费|扫二维码付款|二维码收款|收钱码|先享后付|支付|收入|商业服务|生活服务)$/;

/** Kinds of trade whose counterpart is a person: a nickname says nothing about what the money was for. */
const TO_PERSON = /^(转账|转账红包|微信红包|群收款|赞赏码|亲友代付|二维码收款)$/;

/**
 * Food-delivery platforms. An order there that names nothing but a shop (「老王家（滨江店）」,
 * 「美团订单-2603…」) is most likely a meal: the words find every other kind of order first.
 */
const MEAL_PLATFORM = /^(美团|美团外卖|美团平台商户|饿了么)$/;
const MEALS = '餐饮';

/** A branch, a colour, a detail in brackets: 「米线（地铁站店）」 is 米线, not 地铁. */
const ASIDE = /[（(][^（）()]*[）)]/g;

export function chooseCategory(l: BillLine, type: TransactionType, format: BillFormat, c: Categorizer): string {
  const merchant = merchantOf(l, format);
  const remembered = merchant ? c.memory.get(merchantKey(type, merchant)) : undefined;
  if (remembered && has(c.categories, type, remembered)) return remembered;

  // 微信红包（群红包） and 转账-退款 are the kinds 微信红包 and 转账.
  const names = [l.category, l.kind]
    .flatMap((s) => s.split(/\s+/))
    .map((s) => s.replace(ASIDE, '').replace(/[-－]退款$/, ''))
    .filter(Boolean);
  const own = names.filter((name) => !VAGUE.test(name));
  for (const name of own) {
    if (has(c.categories, type, name)) return name;
    const hit = SUGGESTS[name] ? undefined : byName(name, type, c.categories);
    if (hit) return hit;
  }
  const unmapped = own.filter((name) => !SUGGESTS[name]);

  const toPerson = names.some((name) => TO_PERSON.test(name));
  const texts = [l.item.replace(/^退款[-－:：\s]*/, ''), toPerson ? '' : l.merchant, l.note].map((s) => s.replace(ASIDE, ' ').trim());
  // The bill's own names have words too: JD's 收发快递 is 快递, which is 其他.
  const said = c.words(texts, type) ?? c.words(unmapped, type);
  if (said) return said.name;

  const suggested = own.flatMap((name) => SUGGESTS[name] ?? []).find((name) => has(c.categories, type, name));
  if (suggested) return suggested;
  const mealPlatform = format === 'meituan' || MEAL_PLATFORM.test(l.merchant);
  if (type === 'EXPENSE' && mealPlatform && has(c.categories, type, MEALS)) return MEALS;
  return fallback(type, c.categories);
}

function has(categories: readonly CategoryCandidate[], type: TransactionType, name: string): boolean {
  return categories.some((x) => x.type === type && x.name === name);
}

/** A bill's category name onto the user's: an alias, or one that contains ours. */
function byName(name: string, type: TransactionType, categories: readonly CategoryCandidate[]): string | undefined {
  const same = categories.filter((x) => x.type === type && x.name !== OTHER_CATEGORY);
  const alias = type === 'EXPENSE' ? EXPENSE_ALIASES[name] : undefined;
  if (alias && same.some((x) => x.name === alias)) return alias;
  // 餐饮美食 → 餐饮, 交通出行 → 交通: a bill's category names ours and more (longest first).
  return [...same].sort((a, b) => b.name.length - a.name.length).find((x) => x.name.length >= 2 && name.includes(x.name))?.name;
}

function fallback(type: TransactionType, categories: readonly CategoryCandidate[]): string {
  const same = categories.filter((x) => x.type === type);
  return (same.find((x) => x.name === OTHER_CATEGORY) ?? same[0])?.name ?? OTHER_CATEGORY;
}
