// A bank's SMS notification: 「【招商银行】您尾号0001的卡于11月27日12:03消费人民币128.00元，商户：
// 瑞幸咖啡」. The year is not written: it is the year of now, or the year before when that day
// would still be to come. 消费 / 支出 is money out, 收入 / 存入 / 转入 money in, 退货 / 退款 money
// back for a purchase. A screenshot of the messages app holds several: one draft each.
import { MAX_BATCH_ITEMS } from '@shared/domain';
import { bankName } from './pay-account';
import { draftOf, type Direction, type PictureContext } from './read-draft';
import { whenIn, type Row } from './read-rows';
import type { PictureReading } from './types';

const OUT = '消费|支出|支付|扣款|扣费|取现|转出|付款|刷卡';
const IN = '收入|存入|转入|入账|汇入|到账|代发工资|工资|退货|退款';
/** A verb, what it was in brackets (支出(消费)), and the amount in 元 that follows it. */
const MOVED = new RegExp(
  String.raw`(${OUT}|${IN})(?:[(（][^)）]{0,10}[)）])?[^\d¥]{0,8}?(?:人民币|RMB|CNY|¥)?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?\s*元`,
);
const CARD = /尾号\s*[:：]?\s*(\d{4})|账户\s*\*{0,4}(\d{4})|卡号?\s*\*+(\d{4})/;
const MERCHANT = [
  /商户(?:名称)?\s*[:：]?\s*([^，,。；;\s]{2,30})/,
  /(?:财付通|支付宝|京东支付|美团支付|银联)[-—]([^，,。；;()（）]{2,30})/,
  /在([^，,。；;在]{2,20}?)(?:消费|支付|刷卡)/,
];

/** A code for a payment not yet made, or one that failed: nothing moved. */
const NOT_DONE = /验证码|校验码|动态码|动态密码|正在|失败|未成功|预授权/;

export function readBankSms(rows: readonly Row[], context: PictureContext): PictureReading | null {
  // A message wraps over several rows: read the page as one text, then cut it into messages.
  const text = rows.map((r) => r.text).join('');
  const messages = text
    .split(/(?=【[^】]{2,12}】)|(?<!】)(?=您(?:的)?(?:尾号|账户|信用卡|借记卡|储蓄卡))/)
    .filter((m) => CARD.test(m) && !NOT_DONE.test(m));
  const drafts = messages.flatMap((message) => {
    const moved = MOVED.exec(message);
    if (!moved) return [];
    const [, verb, whole, decimals] = moved;
    const card = CARD.exec(message)!;
    const digits = card[1] ?? card[2] ?? card[3];
    const bank = /【([^】]+)】/.exec(message)?.[1] ?? bankName(message);
    const direction: Direction = /退货|退款/.test(verb!) ? 'refund' : new RegExp(`^(${IN})$`).test(verb!) ? 'in' : 'out';
    const merchant = MERCHANT.map((re) => re.exec(message)?.[1]).find(Boolean) ?? null;
    const cardKind = /信用卡/.test(message) ? '信用卡' : /借记卡|储蓄卡/.test(message) ? '储蓄卡' : '卡';
    const wage = /工资|代发/.test(message);
    return [
      draftOf(
        {
          amountFen: Number(whole!.replace(/,/g, '')) * 100 + Number((decimals ?? '0').padEnd(2, '0')),
          direction,
          merchant,
          item: wage ? '工资' : '',
          description: merchant ? undefined : wage ? '工资' : `${bank ?? '银行卡'}${direction === 'out' ? '消费' : '入账'}`,
          when: whenIn(message.slice(card.index), context.now),
          payMethod: `${bank ?? ''}${cardKind}(${digits})`,
        },
        context,
      ),
    ];
  });
  if (drafts.length === 0) return null;
  return { kind: 'bank-sms', drafts: drafts.slice(0, MAX_BATCH_ITEMS), notes: [] };
}
