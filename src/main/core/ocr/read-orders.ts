// Order pages of the food and shopping platforms: 美团 / 饿了么 (a shop, its dishes, 配送费,
// 实付) and 淘宝 / 京东 (a shop, a product, 商品总价 or 商品总额, 实付款). What was paid is 实付 /
// 实付款 — never 商品总价, which is before 优惠 and without 运费. A page is one of these only when
// it names its platform and shows an order's labels; a cancelled or unpaid order holds no draft.
import type { Found, PictureContext } from './read-draft';
import { draftOf } from './read-draft';
import { amountOf, amountsIn, hasWords, isLabelRow, valueOf, whenOnPage, type Row } from './read-rows';
import type { PictureKind, PictureReading } from './types';

const PLATFORMS: readonly { kind: PictureKind; name: RegExp; labels: RegExp }[] = [
  { kind: 'meituan', name: /美团/, labels: /^(实付|配送费|打包费|订单号码|订单号|下单时间|期望时间|送达时间|商品总价)/ },
  { kind: 'eleme', name: /饿了么|蜂鸟|蓝骑士/, labels: /^(实付|配送费|打包费|餐盒费|订单号|下单时间|送达时间|商品总价)/ },
  { kind: 'taobao', name: /淘宝|天猫|淘特|支付宝交易号/, labels: /^(实付款|订单编号|创建时间|付款时间|成交时间|发货时间|支付宝交易号|商品总价)/ },
  { kind: 'jd', name: /京东/, labels: /^(实付款|订单编号|下单时间|商品总额|运费|支付方式|京豆)/ },
];

/** Words of an order on which no money moved. */
const UNPAID = /订单已取消|已取消|交易关闭|待付款|等待付款|等待买家付款|待支付|支付超时|未支付/;

export function readOrder(rows: readonly Row[], context: PictureContext): PictureReading | null {
  const all = rows.map((r) => r.text).join('\n');
  // Labels that start rows and carry a figure: an article about 美团's 配送费 and 实付 is no order.
  const labelled = (labels: RegExp) =>
    new Set(
      rows
        .filter((r) => /\d/.test(r.text))
        .map((r) => labels.exec(r.text)?.[1])
        .filter(Boolean),
    ).size;
  const platform = PLATFORMS.find((p) => p.name.test(all) && labelled(p.labels) >= 2);
  if (!platform) return null;
  const { kind } = platform;
  const money = amountOf(rows, '实付款|实付金额|实付|用户实付|已付款|已支付');
  if (!money) return null;
  if (UNPAID.test(all) && !/退款成功/.test(all)) return { kind, drafts: [], notes: [] };
  const food = kind === 'meituan' || kind === 'eleme';
  const shop = shopOf(rows, food);
  const when = whenOnPage(rows, food ? '支付时间|下单时间|订单时间|创建时间' : '付款时间|支付时间|下单时间|创建时间|成交时间', context.now);
  const payMethod = valueOf(rows, '支付方式|付款方式');
  let found: Found;
  if (food) {
    // Bills of 美团 remember a shop by its order title, which is the shop's name: the same key here.
    const name = shop ?? (kind === 'meituan' ? '美团外卖' : '饿了么');
    found = {
      amountFen: money.fen,
      direction: 'out',
      merchant: name,
      item: name,
      note: dishesOf(rows).join(' '),
      when,
      payMethod,
      format: 'meituan',
    };
  } else {
    const product = productOf(rows, shop);
    const merchant = shop ?? (kind === 'jd' ? '京东' : /天猫/.test(all) ? '天猫' : '淘宝');
    found = {
      amountFen: money.fen,
      direction: 'out',
      merchant,
      item: product ?? '',
      billKind: '网购',
      description: product ? product.slice(0, 30) : undefined,
      when,
      payMethod,
      format: kind === 'jd' ? 'jd' : 'alipay',
    };
  }
  return { kind, drafts: [draftOf(found, context)], notes: [] };
}

/** Rows of an order page that are its furniture: statuses, buttons, the rider, the platform. */
const ORDER_FURNITURE =
  /订单已|已送达|已完成|交易成功|待收货|已签收|感谢|再来一单|评价|联系|申请|退款|骑手|配送|预计|送达|专送|快送|美团|饿了么|蜂鸟|准时|收货地址|地址|查看|复制|物流|快递|发货|^\d{1,2}:\d{2}|订单详情|我的订单|^<|返回/;
const SHOP = /(旗舰店|专卖店|专营店|官方店|自营|店铺|小店|超市|店|馆|铺|坊|厅|餐厅|\))\s*[>〉›]*$/;

/**
 * The shop: the row that names a shop, among the rows above the first price; on a food order,
 * else the first row there that is no furniture (a shop named 瑞幸咖啡 says no 店).
 */
function shopOf(rows: readonly Row[], food: boolean): string | null {
  const firstPrice = rows.findIndex((r) => amountsIn(r.text).length > 0);
  const above = rows.slice(0, firstPrice < 0 ? rows.length : firstPrice);
  const named = valueOf(rows, '商家名称|店铺名称');
  if (named) return clean(named);
  const candidates = above.map((r) => clean(r.text)).filter((t) => hasWords(t) && !isLabelRow(t) && !ORDER_FURNITURE.test(t));
  return candidates.find((t) => SHOP.test(t)) ?? (food ? (candidates[0] ?? null) : null);
}

function clean(text: string): string {
  return text.replace(/\s*[>〉›]+$/, '').trim();
}

const COUNT = /\s*[x×X*]\s*\d+\s*/;
const SPEC = /颜色|尺码|规格|型号|分类[:：]|数量|已选|件数/;

/** The dishes of a food order: the rows with a count (x1). */
function dishesOf(rows: readonly Row[]): string[] {
  return rows
    .filter((r) => COUNT.test(r.text) && !isLabelRow(r.text))
    .map((r) =>
      r.text
        .split(COUNT)[0]!
        .replace(/[¥\d.,\s]+$/, '')
        .trim(),
    )
    .filter((t) => hasWords(t));
}

/** The product of a shopping order: the first row of words under the shop that is no label, spec or price. */
function productOf(rows: readonly Row[], shop: string | null): string | null {
  const start = shop ? rows.findIndex((r) => clean(r.text) === shop) + 1 : 0;
  for (const row of rows.slice(start)) {
    const text = row.text
      .replace(/[¥Y羊半]\s*[\d.,]+/g, '')
      .replace(COUNT, ' ')
      .trim();
    if (isLabelRow(text) || /^(实付款|订单编号|商品总价)/.test(text)) break;
    if (!hasWords(text) || text.length < 4 || SPEC.test(text) || ORDER_FURNITURE.test(text)) continue;
    return text;
  }
  return null;
}
