// Bills in each issuer's real layout — preamble, header, data rows, footer — made up and
// anonymized: one household's month told by Alipay (three layouts), WeChat Pay, JD and Meituan,
// with the cases that matter (refunds told in every way a bill tells them, neutral lines,
// fees, closed trades), plus what a user's Excel or WPS makes of them on re-saving.
import { createHash } from 'node:crypto';
import { parseCsv } from '../../src/main/core/ledger/csv';
import { csvFields } from '../../src/main/core/ledger/csv-export';

export const utf8 = (text: string) => new TextEncoder().encode(text);
export const utf8Bom = (text: string) => utf8(`\uFEFF${text}`);

let gbkTable: Map<string, number[]> | undefined;

/** GBK encoder built from the platform's own GBK decoder (Node has no GBK encoder). */
export function gbk(text: string): Uint8Array {
  if (!gbkTable) {
    gbkTable = new Map();
    const decoder = new TextDecoder('gbk');
    for (let lead = 0x81; lead <= 0xfe; lead++) {
      for (let trail = 0x40; trail <= 0xfe; trail++) {
        if (trail === 0x7f) continue;
        const ch = decoder.decode(new Uint8Array([lead, trail]));
        if (ch.length === 1 && ch !== '\uFFFD' && !gbkTable.has(ch)) gbkTable.set(ch, [lead, trail]);
      }
    }
  }
  const out: number[] = [];
  for (const ch of text) {
    if (ch.charCodeAt(0) < 0x80) {
      out.push(ch.charCodeAt(0));
      continue;
    }
    const code = gbkTable.get(ch);
    if (!code) throw new Error(`no GBK code for ${ch}`);
    out.push(...code);
  }
  return new Uint8Array(out);
}

// ---- Alipay ---------------------------------------------------------------------------------

/** One trade as Alipay's app exports it (today's and 2021's layouts share these columns). */
export interface AlipayTrade {
  time: string;
  category: string;
  counterpart: string;
  item: string;
  direction: '支出' | '收入' | '不计收支' | '';
  amount: string;
  method: string;
  status: string;
  orderNo: string;
}

/** The month every Alipay layout tells (newest first, as Alipay lists it). */
export const ALIPAY_MONTH: readonly AlipayTrade[] = [
  {
    time: '2026-03-20 19:00:00',
    category: '退款',
    counterpart: '优衣库官方旗舰店',
    item: '退款-羽绒服',
    direction: '不计收支',
    amount: '100.00',
    method: '花呗',
    status: '退款成功',
    orderNo: '2026031522001100001_R1',
  },
  {
    time: '2026-03-18 10:00:00',
    category: '信用借还',
    counterpart: '花呗',
    item: '花呗主动还款-2026年02月账单',
    direction: '不计收支',
    amount: '500.00',
    method: '招商银行储蓄卡(1234)',
    status: '还款成功',
    orderNo: '2026031822001100002',
  },
  {
    time: '2026-03-16 12:00:00',
    category: '退款',
    counterpart: '苹果官方旗舰店',
    item: '退款-AirPods',
    direction: '收入',
    amount: '999.00',
    method: '余额',
    status: '退款成功',
    orderNo: '2026031422001100003_R1',
  },
  {
    time: '2026-03-16 09:00:00',
    category: '投资理财',
    counterpart: '余额宝',
    item: '余额宝-自动转入',
    direction: '不计收支',
    amount: '1000.00',
    method: '招商银行储蓄卡(1234)',
    status: '交易成功',
    orderNo: '2026031622001100004',
  },
  {
    time: '2026-03-15 20:00:00',
    category: '服饰装扮',
    counterpart: '优衣库官方旗舰店',
    item: '羽绒服',
    direction: '支出',
    amount: '499.00',
    method: '花呗',
    status: '交易成功',
    orderNo: '2026031522001100001',
  },
  {
    time: '2026-03-14 11:00:00',
    category: '数码电器',
    counterpart: '苹果官方旗舰店',
    item: 'AirPods',
    direction: '支出',
    amount: '999.00',
    method: '余额',
    status: '交易关闭',
    orderNo: '2026031422001100003',
  },
  {
    time: '2026-03-10 12:30:00',
    category: '餐饮美食',
    counterpart: '上海交通大学第一食堂',
    item: '午餐',
    direction: '支出',
    amount: '15.50',
    method: '余额',
    status: '交易成功',
    orderNo: '2026031022001100005',
  },
  {
    time: '2026-03-09 08:00:00',
    category: '交通出行',
    counterpart: '滴滴出行',
    item: '快车',
    direction: '支出',
    amount: '23.40',
    method: '花呗',
    status: '交易成功',
    orderNo: '2026030922001100006',
  },
  {
    time: '2026-03-05 09:00:00',
    category: '转账红包',
    counterpart: '张三',
    item: '转账',
    direction: '收入',
    amount: '200.00',
    method: '余额',
    status: '交易成功',
    orderNo: '2026030522001100007',
  },
  {
    time: '2026-03-04 10:00:00',
    category: '日用百货',
    counterpart: '便利店',
    item: '纸巾',
    direction: '支出',
    amount: '9.90',
    method: '余额',
    status: '交易关闭',
    orderNo: '2026030422001100008',
  },
  {
    time: '2026-03-03 10:00:00',
    category: '充值缴费',
    counterpart: '中国移动',
    item: '话费充值',
    direction: '支出',
    amount: '50.00',
    method: '余额',
    status: '交易成功',
    orderNo: '2026030322001100009',
  },
  {
    time: '2026-03-02 10:00:00',
    category: '其他',
    counterpart: '某某科技有限公司',
    item: '二月工资',
    direction: '收入',
    amount: '8,000.00',
    method: '余额',
    status: '交易成功',
    orderNo: '2026030222001100010',
  },
  {
    time: '2026-03-01 10:00:00',
    category: '充值提现',
    counterpart: '余额提现',
    item: '提现-实时提现',
    direction: '不计收支',
    amount: '300.00',
    method: '余额',
    status: '交易成功',
    orderNo: '2026030122001100011',
  },
];

/** What the month comes to, whichever Alipay layout tells it. */
export const ALIPAY_EXPECTED = {
  format: 'alipay',
  lines: 13,
  toImport: 7,
  rows: 7,
  expenseFen: 49900 + 1550 + 2340 + 5000 - 10000,
  incomeFen: 20000 + 800000,
  skipped: [
    { reason: 'closed', count: 1, fen: 990 },
    { reason: 'withdrawal', count: 1, fen: 30000 },
    { reason: 'wealth', count: 1, fen: 100000 },
    { reason: 'repayment', count: 1, fen: 50000 },
  ],
  // The AirPods refunded in full and its refund line.
  netted: { count: 2, fen: 99900 },
} as const;

const ALIPAY_NOTES = [
  '特别提示：',
  '1.本回单内容可表明支付宝受理了相应支付交易申请，因系统原因或通讯故障等偶发因素导致本回单与实际交易结果不符时，以实际交易情况为准；',
  '2.部分账单如：充值提现、账户转存或者个人设置收支等不计入为收入或者支出，记为不计收支类；',
];

const pad = (text: string, width = 20) => text + ' '.repeat(Math.max(0, width - text.length));

/** Today's 电子客户回单 (GBK, CRLF): a preamble, cells padded with spaces, ids ending in a tab. */
export function alipayCurrent(trades: readonly AlipayTrade[] = ALIPAY_MONTH): string {
  const lines = [
    '------------------------------------------------------------------------------------',
    '导出信息：',
    '姓名：某某',
    '支付宝账户：someone@example.com',
    '起始时间：[2026-03-01 00:00:00]    终止时间：[2026-03-31 23:59:59]',
    '导出交易类型：[全部]',
    '导出时间：[2026-04-01 09:12:52]',
    `共${trades.length}笔记录`,
    '',
    ...ALIPAY_NOTES,
    '',
    '------------------------支付宝（中国）网络技术有限公司  电子客户回单------------------------',
    ['交易时间', '交易分类', '交易对方', '对方账号', '商品说明', '收/支', '金额', '收/付款方式', '交易状态', '交易订单号', '商家订单号', '备注', '']
      .map((h) => pad(h))
      .join(','),
    ...trades.map((t) =>
      csvFields([
        pad(t.time),
        pad(t.category),
        pad(t.counterpart),
        pad('/'),
        pad(t.item),
        pad(t.direction),
        pad(t.amount),
        pad(t.method),
        pad(t.status),
        `${t.orderNo}\t`,
        `M${t.orderNo.slice(-6)}\t`,
        pad(''),
        '',
      ]),
    ),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

/** The 2021 app export: 收/支 first, 交易时间 last; a neutral line's 收/支 may be empty. */
export function alipay2021(trades: readonly AlipayTrade[] = ALIPAY_MONTH): string {
  const lines = [
    '------------------------------------------------------------------------------------',
    '导出信息：',
    '姓名：某某',
    '支付宝账户：someone@example.com',
    '起始时间：[2026-03-01 00:00:00]    终止时间：[2026-03-31 23:59:59]',
    '导出交易类型：[全部]',
    `共${trades.length}笔记录`,
    '',
    ...ALIPAY_NOTES,
    '------------------------------------------------------------------------------------',
    '收/支,交易对方,对方账号,商品说明,收/付款方式,金额,交易状态,交易分类,交易订单号,商家订单号,交易时间,',
    ...trades.map((t, i) =>
      csvFields([
        t.direction === '不计收支' && i % 2 ? '' : t.direction,
        t.counterpart,
        '/',
        t.item,
        t.method,
        t.amount,
        t.status,
        t.category,
        `${t.orderNo}\t`,
        '\t',
        t.time,
        '',
      ]),
    ),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * The old web 交易记录明细查询: no categories, refunds in a column of the purchase (成功退款),
 * fees in their own column, a footer of totals.
 */
export function alipayWeb(): string {
  const row = (
    no: string,
    time: string,
    kind: string,
    counterpart: string,
    item: string,
    amount: string,
    direction: string,
    status: string,
    fee: string,
    refund: string,
  ) =>
    csvFields([
      `${no}\t`,
      '\t',
      time,
      time,
      time,
      '其他（包括阿里巴巴和外部商家）',
      kind,
      counterpart,
      item,
      amount,
      direction,
      status,
      fee,
      refund,
      '',
      '',
      '',
    ]);
  const lines = [
    '支付宝交易记录明细查询',
    '账号:[20880000000000000156]',
    '起始日期:[2026-03-01 00:00:00]    终止日期:[2026-04-01 00:00:00]',
    '---------------------------------交易记录明细列表------------------------------------',
    '交易号,商户订单号,交易创建时间,付款时间,最近修改时间,交易来源地,类型,交易对方,商品名称,金额（元）,收/支,交易状态,服务费（元）,成功退款（元）,备注,资金状态,',
    row('2026031520001', '2026-03-15 20:00:00', '支付宝担保交易', '优衣库官方旗舰店', '羽绒服', '499.00', '支出', '交易成功', '0.00', '100.00'),
    row('2026031420002', '2026-03-14 11:00:00', '支付宝担保交易', '苹果官方旗舰店', 'AirPods', '999.00', '支出', '交易关闭', '0.00', '999.00'),
    row('2026031020003', '2026-03-10 12:30:00', '即时到账交易', '上海交通大学第一食堂', '午餐', '15.50', '支出', '交易成功', '0.00', '0.00'),
    row('2026030920004', '2026-03-09 08:00:00', '即时到账交易', '滴滴出行', '快车', '23.40', '支出', '交易成功', '0.00', '0.00'),
    row('2026030520005', '2026-03-05 09:00:00', '即时到账交易', '张三', '转账', '200.00', '收入', '交易成功', '0.00', '0.00'),
    row('2026030420006', '2026-03-04 10:00:00', '支付宝担保交易', '便利店', '纸巾', '9.90', '支出', '交易关闭', '0.00', '0.00'),
    row('2026030120007', '2026-03-01 10:00:00', '提现', '余额提现', '提现-实时提现', '300.00', '', '交易成功', '2.00', '0.00'),
    '------------------------------------------------------------------------------------',
    '共7笔记录',
    '已收入:1笔,200.00元',
    '待收入:0笔,0.00元',
    '已支出:3笔,537.90元',
    '待支出:0笔,0.00元',
    '导出时间:[2026-04-01 09:00:00]    用户:某某',
  ];
  return `${lines.join('\r\n')}\r\n`;
}

// ---- WeChat Pay -----------------------------------------------------------------------------

export const WECHAT_HEADER = [
  '交易时间',
  '交易类型',
  '交易对方',
  '商品',
  '收/支',
  '金额(元)',
  '支付方式',
  '当前状态',
  '交易单号',
  '商户单号',
  '备注',
];

/** [time, kind, counterpart, item, direction, amount (yuan), method, status, note] */
export type WechatTrade = [string, string, string, string, string, number, string, string, string];

export const WECHAT_MONTH: readonly WechatTrade[] = [
  ['2026-03-20 19:00:00', '退款', '优衣库', '退款-羽绒服', '收入', 100, '招商银行(1234)', '已退款', '/'],
  ['2026-03-18 10:00:00', '信用卡还款', '招商银行信用卡还款', '/', '/', 500, '零钱', '支付成功', '/'],
  ['2026-03-16 09:00:00', '转入零钱通-来自零钱', '/', '/', '/', 1000, '零钱', '支付成功', '/'],
  ['2026-03-15 20:00:00', '商户消费', '优衣库', '羽绒服', '支出', 499, '招商银行(1234)', '已退款(￥100.00)', '/'],
  ['2026-03-14 11:00:00', '商户消费', '苹果', 'AirPods', '支出', 999, '零钱', '已全额退款', '/'],
  ['2026-03-12 18:00:00', '转账', '王五', '转账备注:借你的', '支出', 300, '零钱', '对方已退还', '/'],
  ['2026-03-10 12:30:00', '商户消费', '上海交通大学第一食堂', '午餐', '支出', 15.5, '零钱', '支付成功', '/'],
  ['2026-03-09 08:00:00', '商户消费', '滴滴出行', '快车', '支出', 23.4, '零钱', '支付成功', '/'],
  ['2026-03-08 07:45:00', '扫二维码付款', '早餐店', '收款方备注:二维码收款', '支出', 8, '零钱', '已转账', '/'],
  ['2026-03-06 20:00:00', '微信红包', '李四', '/', '收入', 66, '/', '已存入零钱', '/'],
  ['2026-03-05 21:00:00', '群收款', '赵六', '聚餐AA', '收入', 80, '/', '已收钱', '/'],
  ['2026-03-01 10:00:00', '零钱提现', '招商银行(1234)', '/', '/', 300.3, '零钱', '提现已到账', '服务费¥0.30'],
];

export const WECHAT_EXPECTED = {
  format: 'wechat',
  lines: 12,
  // The 零钱提现 line writes its 0.30 fee.
  toImport: 8,
  rows: 8,
  expenseFen: 1550 + 2340 + 800 + 49900 + 30 - 10000,
  incomeFen: 6600 + 8000,
  skipped: [
    { reason: 'wealth', count: 1, fen: 100000 },
    { reason: 'repayment', count: 1, fen: 50000 },
  ],
  // The AirPods refunded in full and the transfer sent back.
  netted: { count: 2, fen: 99900 + 30000 },
} as const;

const WECHAT_PREAMBLE = [
  '微信支付账单明细',
  '微信昵称：[某某]',
  '起始时间：[2026-03-01 00:00:00] 终止时间：[2026-03-31 23:59:59]',
  '导出类型：[全部]',
  '导出时间：[2026-04-01 09:00:00]',
  '',
  '共12笔记录',
  '收入：2笔 146.00元',
  '支出：6笔 1845.40元',
  '中性交易：4笔 2100.30元',
  '注：',
  '1. 充值/提现/理财通购买/零钱通存取/信用卡还款等交易，将计入中性交易',
  '2. 本明细仅展示当前账单中的交易，不包括已删除的记录',
  '3. 本明细仅供个人对账使用',
  '',
  '----------------------微信支付账单明细列表--------------------',
];

/**
 * A trade's 交易单号 and 商户单号: the same in every bill that lists it (a month's, a quarter's,
 * a re-export), as WeChat's are.
 */
function wechatOrderNos(trade: WechatTrade): [string, string] {
  const digits = createHash('sha256').update(trade.join('|')).digest().readBigUInt64BE().toString().padStart(20, '0');
  return [`42000${digits.slice(0, 23).padStart(23, '0')}`, `10${digits.slice(0, 12)}`];
}

/** The CSV export (UTF-8): ¥ amounts, ids ending in a tab, preamble lines padded with commas. */
export function wechatCsv(trades: readonly WechatTrade[] = WECHAT_MONTH): string {
  const width = WECHAT_HEADER.length;
  const lines = [
    ...WECHAT_PREAMBLE.map((l) => l + ','.repeat(width - 1)),
    WECHAT_HEADER.join(','),
    ...trades.map((trade) => {
      const [time, kind, counterpart, item, direction, amount, method, status, note] = trade;
      const [orderNo, merchantNo] = wechatOrderNos(trade);
      return csvFields([time, kind, counterpart, item, direction, `¥${amount.toFixed(2)}`, method, status, `${orderNo}\t`, `${merchantNo}\t`, note]);
    }),
  ];
  return `${lines.join('\n')}\n`;
}

/** The rows of WeChat's .xlsx: the same preamble, 交易时间 a date cell, the amount a number cell. */
export function wechatSheet(trades: readonly WechatTrade[] = WECHAT_MONTH): (string | number | Date | null)[][] {
  return [
    ...WECHAT_PREAMBLE.map((l) => [l || null]),
    WECHAT_HEADER,
    ...trades.map((trade) => {
      const [time, kind, counterpart, item, direction, amount, method, status, note] = trade;
      return [new Date(`${time.replace(' ', 'T')}Z`), kind, counterpart, item, direction, amount, method, status, ...wechatOrderNos(trade), note];
    }),
  ];
}

// ---- JD and Meituan ---------------------------------------------------------------------------

/** JD's export (UTF-8 with BOM): refunds inside the amount cell and on lines of their own. */
export function jdCsv(): string {
  const row = (time: string, merchant: string, item: string, amount: string, method: string, status: string, direction: string, category: string) =>
    csvFields([`${time}\t`, merchant, item, amount, method, status, direction, category, '100000011234\t', '1000345234234223\t', ' ']);
  const lines = [
    '导出信息：',
    '京东账号名：jd_0000000000',
    '申请时间：2026-04-01 11:32:42',
    '日期区间：2026-03-01 至 2026-03-31',
    '导出交易类型：全部',
    '共：9笔记录',
    '收入：0笔，0.00元',
    '支出：3笔(含1笔部分退款)，93.83元',
    '不计收支：6笔，1476.14元',
    '',
    '特别提示',
    '1.本明细为每笔订单支付的明细，不包括已删除的记录；',
    '2.个人资金互转、全额退款等记为【不计收支】类，部分退款的支出金额为剔除退款后的支付金额；',
    '',
    '交易时间,商户名称,交易说明,金额,收/付款方式,交易状态,收/支,交易分类,交易订单号,商家订单号,备注',
    row('2026-03-20 19:00:00', '京东平台商户', '退款-羽绒服男款 黑色 XL', '89.84', '中国银行信用卡(0001)', '退款成功', '不计收支', '网购'),
    row('2026-03-18 10:00:00', '京东白条', '白条主动还款', '500.00', '中国银行储蓄卡(0002)', '还款成功', '不计收支', '白条'),
    row('2026-03-16 12:00:00', '京东平台商户', '退款-蓝牙耳机 白色', '468.32', '中国银行信用卡(0001)', '退款成功', '不计收支', '网购'),
    row(
      '2026-03-15 20:00:00',
      '京东平台商户',
      '羽绒服男款 黑色 XL 等多件',
      '131.77(已退款89.84)',
      '中国银行信用卡(0001)',
      '交易成功',
      '支出',
      '服饰内衣',
    ),
    row(
      '2026-03-14 11:00:00',
      '京东平台商户',
      '蓝牙耳机 白色 等多件',
      '468.32(已全额退款)',
      '中国银行信用卡(0001)',
      '交易成功',
      '不计收支',
      '数码电器',
    ),
    row('2026-03-12 09:00:00', '京东平台商户', '手机壳', '19.90', '钱包余额', '交易关闭', '不计收支', '数码电器'),
    row('2026-03-10 12:30:00', '京东物流', '京东物流', '12.00', '钱包余额', '交易成功', '支出', '收发快递'),
    row('2026-03-09 08:00:00', '京东平台商户', '新鲜水果 苹果 5斤', '39.90', '微信-招商银行信用卡', '交易成功', '支出', '食品酒饮'),
    row('2026-03-08 08:00:00', '京东平台商户', '先享后付 订单', '0.00', '先享后付', '交易成功', '不计收支', '先享后付'),
  ];
  return `${lines.join('\n')}\n`;
}

export const JD_EXPECTED = {
  format: 'jd',
  lines: 9,
  toImport: 4,
  rows: 4,
  expenseFen: 13177 + 1200 + 3990 - 8984,
  incomeFen: 0,
  skipped: [
    { reason: 'closed', count: 1, fen: 1990 },
    { reason: 'repayment', count: 1, fen: 50000 },
    { reason: 'neutral', count: 1, fen: 0 },
  ],
  // The earphones refunded in full and their refund line.
  netted: { count: 2, fen: 46832 },
} as const;

/** Meituan's export (UTF-8 with BOM, CRLF): ids quoted and ending in a tab, ¥ amounts, 实付 after discounts. */
export function meituanCsv(): string {
  const row = (time: string, kind: string, title: string, direction: string, method: string, order: string, paid: string, no: string) =>
    csvFields([
      time,
      time.replace(/:(\d{2})$/, (_, s: string) => `:${String((Number(s) + 7) % 60).padStart(2, '0')}`),
      kind,
      title,
      direction,
      method,
      order,
      paid,
      `${no}\t`,
      `M${no}\t`,
      '/',
    ]);
  const lines = [
    '美团交易账单明细',
    '美团用户名：[SJT000000000]',
    '起始时间：[2026-03-01] 终止时间：[2026-03-31]',
    '导出交易类型：[全部]',
    '导出时间：[2026-04-01 17:43:31]',
    '""',
    '共：6笔记录',
    '支出：3笔 87.29元',
    '收入：2笔 31.90元',
    '不计收支：0笔 0.00元',
    '""',
    '特别提示：',
    '1. 本明细与实际交易结果不符时，以实际交易情况为准',
    '3. 部分账单记录如充值/提现等交易，不计入为收入或支出类别',
    '""',
    '【美团交易账单明细列表】',
    '交易创建时间,交易成功时间,交易类型,订单标题,收/支,支付方式,订单金额,实付金额,交易单号,商家单号,备注',
    row('2026-03-20 20:35:13', '支付', '云南米线（某某店） 订单详情', '支出', '美团月付', '¥22.30', '¥21.17', '26032011100401'),
    row('2026-03-18 07:04:17', '退款', '【爆款回归】葡式蛋挞6只', '收入', '中国银行信用卡(0001)', '¥20.00', '¥20.00', '26031801815411'),
    row('2026-03-16 05:46:21', '退款', '瑞幸咖啡【经典必喝】11选1', '收入', '微信支付', '¥11.90', '¥11.90', '26031601802685'),
    row('2026-03-15 01:42:03', '支付', '【爆款回归】葡式蛋挞6只', '支出', '中国银行信用卡(0001)', '¥20.00', '¥20.00', '26031511100401'),
    row('2026-03-12 20:59:12', '还款', '【美团月付】主动还款2026年3月账单', '支出', '中国银行储蓄卡(0002)', '¥48.14', '¥48.12', '26031211100401'),
    row('2026-03-10 08:00:00', '支付', '打车 快车订单', '支出', '美团月付', '¥18.00', '¥18.00', '26031011100402'),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

export const MEITUAN_EXPECTED = {
  format: 'meituan',
  lines: 6,
  toImport: 3,
  rows: 3,
  // The coffee's refund returns a purchase of an earlier bill: it waits for it (待关联), counting nothing.
  expenseFen: 2117 + 1800,
  incomeFen: 0,
  skipped: [{ reason: 'repayment', count: 1, fen: 4812 }],
  netted: { count: 2, fen: 2000 },
} as const;

// ---- What Excel and WPS make of a bill ----------------------------------------------------------

/**
 * A CSV bill opened in Excel and saved again as CSV: dates lose their seconds and leading
 * zeros (2026/3/5 9:00), ids lose their tab and come back quoted, ¥ amounts stay but plain
 * numbers lose trailing zeros, the cells' padding is gone and every line is padded with
 * commas to the widest; lines end in CRLF.
 */
export function excelResavedCsv(text: string): string {
  const records = parseCsv(text);
  const width = Math.max(...records.map((r) => r.fields.length));
  return `${records
    .map(({ fields }) => {
      const cells = fields.map((raw) => {
        const cell = raw.trim();
        const when = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):\d{2}$/.exec(cell);
        if (when) return `${when[1]}/${Number(when[2])}/${Number(when[3])} ${Number(when[4])}:${when[5]}`;
        if (/^\d{10,}(_\w+)?$/.test(cell)) return `"${cell}"`;
        if (/^\d+\.\d0$/.test(cell)) return cell.replace(/0$/, '').replace(/\.$/, '');
        return csvFields([cell]);
      });
      while (cells.length < width) cells.push('');
      return cells.join(',');
    })
    .join('\r\n')}\r\n`;
}

// ---- Not a bill -------------------------------------------------------------------------------

/** Banks' and cards' statements in their layouts (made up rows), each refused as such. */
export const BANK_STATEMENTS: readonly [string, string][] = [
  [
    'ICBC debit, with its preamble',
    [
      '明细查询文件下载',
      '',
      '卡号: 6222****1234,"卡别名: 工资卡"',
      '',
      '交易日期,摘要,交易详情,交易场所,交易国家或地区简称,钞/汇,交易金额(收入),交易金额(支出),交易币种,记账金额(收入),记账金额(支出),记账币种,余额,对方户名',
      '2026-03-02,消费,,某某超市,CHN,钞,,35.00,人民币,,35.00,人民币,1200.00,',
    ].join('\n'),
  ],
  [
    'BOC credit card',
    [
      '中国银行信用卡账单(2026年03月)',
      '交易日,银行记账日,卡号后四位,交易描述,存入,支出,币种',
      '2026-03-01,2026-03-02,1234,某某商户CHN,,50.00,CNY',
    ].join('\n'),
  ],
  [
    'Bank of Communications credit card',
    ['交易日期,记账日期,交易说明,交易币种/金额,入账币种/金额', '2026-03-10,2026-03-10,消费 美团,CNY 19.90,CNY 19.90'].join('\n'),
  ],
  [
    'ABC debit',
    [
      '交易日期,交易时间,交易摘要,交易金额,本次余额,对手信息,日 志 号,交易渠道,交易附言',
      '20260301,123456,财付通,-10.00,1100.00,微信支付,369333999,电子商务,',
    ].join('\n'),
  ],
  [
    'an English card statement',
    [
      'Transaction date,Post date,Description,Billing amount,Billing currency,Transaction status',
      '09/03/2026,10/03/2026,SOME CAFE,"-18.00",CNY,POSTED',
    ].join('\n'),
  ],
];

/** A bank's statement (China Merchants Bank's debit-card export). */
export function bankStatement(): string {
  return [
    '# 招商银行交易记录',
    '# 导出时间: [2026-04-01 10:00:00]',
    '# 卡号: [6214********1234]',
    '交易日期,交易时间,收入,支出,余额,交易类型,交易备注',
    '20260301,10:00:00,,300.00,1200.00,网联付款交易,财付通-零钱提现',
    '20260302,09:00:00,8000.00,,9200.00,代发工资,工资',
    '',
  ].join('\n');
}
