// Printed and in-app tickets: a taxi's receipt (出租汽车专用发票: 车号, 上车, 下车, 里程, 金额) or a
// ride-hailing trip (滴滴: 行程, 起点, 终点, 实付), and a 电子发票, whose amount is 价税合计（小写）
// and whose merchant is the seller (销售方), never the buyer named first.
import { draftOf, type PictureContext } from './read-draft';
import { amountOf, normalizeText, valueOf, whenOnPage, type Row } from './read-rows';
import type { PictureReading } from './types';

const TAXI = /出租|的士|taxi|客运/i;
const TAXI_LABELS = /^(车号|里程|上车|下车|等候|单价|候时|监督电话)/;
const RIDE_APPS: readonly [RegExp, string][] = [
  [/滴滴/, '滴滴出行'],
  [/高德/, '高德打车'],
  [/曹操/, '曹操出行'],
  [/T3出行/i, 'T3出行'],
  [/花小猪/, '花小猪打车'],
  [/首汽/, '首汽约车'],
  [/嘀嗒/, '嘀嗒出行'],
];
const RIDE_LABELS = /^(行程|起点|终点|里程|车费|上车|下车|计价|时长费|里程费|起步价)/;
const RIDE_CLASS = /特惠快车|快车|专车|拼车|豪华车|出租车|顺风车/;

export function readTaxi(rows: readonly Row[], context: PictureContext): PictureReading | null {
  const all = rows.map((r) => r.text).join('\n');
  // Labels that start rows: a chat about a ride (起点是望京) has none.
  const labels = (re: RegExp) => new Set(rows.map((r) => re.exec(r.text)?.[1]).filter(Boolean)).size;
  const taxiLabels = labels(TAXI_LABELS);
  const app = RIDE_APPS.find(([re]) => re.test(all));
  // A trip statement (行程单) lists its trips under a header of 起点, 终点 and 里程 or 金额.
  const rideLabels = labels(RIDE_LABELS) + (rows.some((r) => /起点.*终点.*(里程|金额)/.test(r.text)) ? 2 : 0);
  const paperTaxi = TAXI.test(all) && taxiLabels >= 2;
  if (!paperTaxi && !(app && rideLabels >= 2) && !(taxiLabels >= 3 && /发票|收据|车费/.test(all))) return null;
  const money = amountOf(rows, '实付|实付款|实收金额|实收|支付金额|应付|合计|总计|总额|金额|车费');
  const company = valueOf(rows, '公司|出租公司|企业名称') ?? rows.find((r) => /^\S*(出租|客运)\S*公司$/.test(r.text))?.text ?? null;
  const merchant = app?.[1] ?? company ?? '出租车';
  const rideClass = RIDE_CLASS.exec(all)?.[0];
  const description = app ? `${app[1].slice(0, 2)}${rideClass ?? '打车'}` : '出租车';
  const when = whenOnPage(rows, '日期|行程时间|下单时间|支付时间|上车时间|订单时间', context.now);
  const draft = draftOf(
    { amountFen: money?.fen ?? null, direction: 'out', merchant, item: '打车', description, when, payMethod: valueOf(rows, '支付方式|付款方式') },
    context,
  );
  return { kind: 'taxi', drafts: [draft], notes: [] };
}

const INVOICE = /电子发票|普通发票|专用发票|发票代码|发票号码|全电发票/;
const NAME = /名\s*称\s*[:：]?\s*/g;
/** What follows a company's name on an invoice: the next field. */
const AFTER_NAME = /\s|统一社会信用代码|纳税人识别号|地\s*址|开户行|电\s*话/;

export function readInvoice(rows: readonly Row[], context: PictureContext): PictureReading | null {
  const all = rows.map((r) => r.text).join('\n');
  if (!INVOICE.test(all) || !/价税合计|小写/.test(all)) return null;
  const money = amountOf(rows, '小写') ?? amountOf(rows, '价税合计');
  const seller = sellerOf(rows);
  if (!money || !(seller || /开票日期/.test(all))) return null;
  const item = rows.map((r) => /^\*([^*]+)\*\s*([^\s]*)/.exec(r.text)).find(Boolean);
  const draft = draftOf(
    {
      amountFen: money.fen,
      direction: 'out',
      merchant: seller,
      item: item ? `${item[2]} ${item[1]}`.trim() : '',
      when: whenOnPage(rows, '开票日期', context.now),
    },
    context,
  );
  return { kind: 'invoice', drafts: [draft], notes: [] };
}

/**
 * The seller's name: 销售方名称, else the right-hand one of a row with two (a 全电发票 puts buyer
 * and seller side by side), else the 名称 after the 销售方 block begins, else the second 名称.
 */
function sellerOf(rows: readonly Row[]): string | null {
  const labelled = valueOf(rows, '销售方名称|销方名称|销售方\\s*名称');
  if (labelled) return cut(labelled);
  const names: { row: number; at: number; value: string }[] = [];
  rows.forEach((r, row) => {
    for (const m of r.text.matchAll(NAME)) names.push({ row, at: m.index, value: cut(r.text.slice(m.index + m[0].length)) });
  });
  // Buyer and seller side by side (a 全电发票): the right-hand 名称 of the row that has two.
  const pair = names.findIndex((n, i) => names[i + 1]?.row === n.row);
  if (pair >= 0) return names[pair + 1]!.value || null;
  const sellerRow = rows.findIndex((r) => /销\s*售\s*方|销\s*方/.test(r.text));
  if (sellerRow >= 0) {
    const sellerAt = rows[sellerRow]!.text.search(/销\s*售\s*方|销\s*方/);
    const after = names.find((n) => n.row > sellerRow || (n.row === sellerRow && n.at > sellerAt));
    if (after?.value) return after.value;
  }
  return names[1]?.value || null;
}

function cut(value: string): string {
  const text = normalizeText(value);
  const end = text.search(AFTER_NAME);
  return (end < 0 ? text : text.slice(0, end)).trim();
}
