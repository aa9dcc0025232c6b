import { parseZonedIso } from '@shared/time';
import { describe, expect, it } from 'vitest';
import { parseLocal } from './index';

const now = parseZonedIso('2026-11-24T20:00:00+08:00')!;
const note = (text: string) => parseLocal(text, { now }).results[0]?.description;

// Notes keep the thing, not the talk: words about the amount, the money's flow, its schedule, the
// account, tags and corrections are said by the item's fields, not by its note. A debt's note keeps
// only what the money was for; the card names the debt by its flow (借给小李).
const NOTES: [group: string, text: string, note: string][] = [
  ['amount', '昨天打车花了28块5', '打车'],
  ['amount', '午饭付了三十五', '午饭'],
  ['amount', '奶茶十五块', '奶茶'],
  ['amount', '交了两千五的房租', '房租'],
  ['amount', '充了一百话费', '话费'],
  ['amount', '电费一共两百三', '电费'],
  ['amount', '午饭大概三十左右', '午饭'],
  ['amount', '一百零八块的外卖', '外卖'],
  ['amount', '抢红包抢了八十八', '抢红包'],
  ['amount', '打车打了四十二', '打车'],
  ['amount', '吃饭吃了一百二', '吃饭'],
  ['flow', '出差打车八十可以报销', '出差打车'],
  ['flow', '出差打车八十，可以报销', '出差打车'],
  ['flow', '打车八十回头找公司报销', '打车'],
  ['flow', '酒店三百不能报销', '酒店'],
  ['flow', '替单位先垫付了机票一千七百六', '机票'],
  ['flow', '淘宝买鞋那笔退了两百', '淘宝买鞋'],
  ['flow', '那件衣服退款一百二', '那件衣服'],
  ['flow', '退烧药退了三十', '退烧药'],
  ['flow', '八十九的充电器退款只退了七十三', '充电器'],
  ['flow', '那个四百五的电饭煲商家退了六十五', '电饭煲'],
  ['flow', '前天六百的外套退了两百二', '外套'],
  ['flow', '差旅费报销到账三千', '差旅费'],
  ['flow', '公司把差旅费报了两千', '差旅费'],
  ['flow', '上个月的出差费报下来了，两千三', '出差费'],
  ['flow', '借给小李五百', ''],
  ['flow', '跟我哥借了两千', ''],
  ['flow', '小李还了我三百', ''],
  ['flow', '我把欠阿峰的六百还了', ''],
  ['flow', '收回借给堂弟的两千七', ''],
  ['flow', '借给同事五百交学费', '交学费'],
  ['schedule', '每个月房租三千', '房租'],
  ['schedule', '每周五羽毛球六十', '羽毛球'],
  ['schedule', '每个月都交房租三千', '交房租'],
  ['schedule', '每周固定打球六十', '打球'],
  ['schedule', '每月一次理发四十', '理发'],
  ['schedule', '以后每个月都要交物业费三百', '交物业费'],
  ['schedule', '从下个月开始每个月房租三千五', '房租'],
  ['schedule', '每天都加班到很晚，今天打车回来七十四', '打车回来'],
  ['account', '晚上吃烤鱼一百三十八用的微信', '吃烤鱼'],
  ['account', '支付宝那个话费充了六十六', '话费'],
  ['account', '理发七十五刷的信用卡', '理发'],
  ['account', '物业费四百二从银行卡扣的', '物业费'],
  ['account', '早点铺包子九块付的现金', '早点铺包子'],
  ['account', '花呗那个吹风机三百二', '吹风机'],
  ['account', '用微信付了午饭三十', '午饭'],
  ['tag', '打车二十标签出差', '打车'],
  ['tag', '奶茶十五打上下午茶标签', '奶茶'],
  ['tag', '打车三十 #出差', '打车'],
  ['tag', '给宝宝买奶粉两百八标记育儿', '给宝宝买奶粉'],
  ['tag', '猫砂五十七标记小橘', '猫砂'],
  ['tag', '加油三百一记到自驾里', '加油'],
  ['tag', '装修买瓷砖三千四算新房的', '装修买瓷砖'],
  ['tag', '门票九十算作团建', '门票'],
  ['tag', '午饭三十记到昨天', '午饭'],
  ['tag', '午饭三十记在本子上', '午饭'],
  ['correction', '午饭三十六哦不是二十六', '午饭'],
  ['correction', '停车费十七嗯不是是二十一', '停车费'],
  ['correction', '打车三十不对是三十五', '打车'],
  ['correction', '水费六十八不不不是八十六', '水费'],
  ['correction', '高铁票三百四十五我说错了是四百三十五', '高铁票'],
  ['correction', '猫粮一百五十三啊不是一百三十五', '猫粮'],
  ['filler', '嗯午饭三十', '午饭'],
  ['filler', '那个打车二十吧', '打车'],
  ['filler', '呃，那个，买了点水果二十五', '买了点水果'],
  ['filler', '帮我记一下午饭三十', '午饭'],
  ['filler', '这笔打车三十', '打车'],
];

describe('notes keep the thing, not the talk', () => {
  it.each(NOTES)('%s: %s → %s', (_group, text, expected) => {
    expect(note(text)).toBe(expected);
  });

  it('keeps a note that only looks like talk', () => {
    expect(note('报销单打印五块')).toBe('报销单打印');
    expect(note('买了个记事本二十')).toBe('买了个记事本');
    expect(note('还信用卡两千')).toBe('还信用卡');
  });
});
