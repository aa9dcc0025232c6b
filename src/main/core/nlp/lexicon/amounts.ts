// Words around a number (src/main/core/nlp/amounts.ts, parse.ts): the units that make it money,
// the measure words that make it a count, and the verbs and words that come with a payment.
import { words } from './words';

/** After a number: money. Tried in this order, so a longer unit goes before its start (块钱, 块). */
export const YUAN_UNITS = words('块钱 元钱 块儿 人民币 rmb 块 元 圆');

/** 八毛, 五角钱: tenths of a yuan (毛钱 before 毛). */
export const JIAO_UNITS = words('毛钱 毛 角钱 角');

/** After 两块: 块 is money, not the measure word of 两块蛋糕. */
export const FOLLOWERS_OF_MONEY = words('钱 的 了 吧 啊 呀 呢 哦 嘛 整 多 左 来');

/** After a number: a count, a duration or a size, never money. */
export const MEASURE_WORDS = words(`
  分钟 小时 钟头 公里 公斤 千克 毫升 个月 周岁 年级 个 杯 件 双 本 次 张 瓶 份 斤 位 人 盒 包 条 只 台 辆 顿 碗 箱 袋 支 枝 根 片
  颗 粒 卷 套 副 对 部 间 家 场 门 节 期 周 晚 夜 趟 遍 口 首 局 把 串 听 罐 桶 壶 锅 盘 碟 楼 层 站 栋 笔 头 匹 款 种 样 些 批 群
  排 行 名 岁 集 页 章 级 秒 刻 米 克 升 度 折 倍 % 年 月 天 号 日 点 时 路 线 届 圈 餐 顶 幅 棵 朵 盏 道 声 km kg g ml l h x 下
  起 共 直 定 般 会
`);

/** 二十一共, 十二块八零食: words that start with a numeral; a number run into one gives it its first character. */
export const NUMERAL_WORDS = words('一共 一起 一下 一样 一般 一直 一定 一会 一些 一同 一并 零食 零钱 零花钱 零件 零售');

/** 两块蛋糕, 三块肥皂: nouns counted in 块, so a small number of 块 before them is a count. */
export const BLOCK_NOUNS = words(`
  蛋糕 肥皂 香皂 手表 表 糖 巧克力 面包 饼干 豆腐 西瓜 瓜 月饼 披萨 比萨 肉 五花肉 排骨 牛排 鸡排 猪排 饼 糕 布 抹布 手帕
  地 土地 砖 瓷砖 石头 石 玻璃 木板 板 电池 屏幕 硬盘 显卡 橡皮 奖牌 金牌 牌子 牌 玉 姜 黄油 奶酪 芝士 冰 墓地 田 宝石 磁铁 蛋饼
`);

/** 一块吃饭, 一块去: after 一块 these verbs make it "together", not one yuan. */
export const TOGETHER_VERBS = words('吃 喝 去 玩 走 买 看 打 坐 回 住 过 逛 唱 出 来 做 干 聚');

/** Words that start with a measure word but name the next item (午饭三十晚饭五十). */
export const NOT_MEASURE = words(`
  晚饭 晚餐 晚上 点外卖 点餐 点菜 点心 天然气 台球 门票 盒饭 盒马 包子 包车 口罩 口红 口香糖 口误 米线 米粉 米饭 行李 家具 家教 家政
  年终 年费 年卡 月卡 月租 月供 头发 下午 起床 片儿 夜宵 夜市 日料 日用 天猫 路费 路桥费 年检 共享单车 会员 会费 门诊 份子钱
  个税 家电 首饰 排骨 笔记本 度假 副业 餐具 包邮 包月 包年 包装 秒杀 套餐 次日 起步 起送
`);

/** Product and series names: a number right after them is the model (iphone15, mate60, ipadair5). */
export const MODEL_NAMES = words(`
  iphone ipad mac macbook airpods watch mate nova pura honor redmi xiaomi galaxy note pixel xbox switch model rtx gtx pro max plus
  ultra mini air
`);

/** 这两笔, 前三个: the measure words that count items on the card. */
export const COUNT_MEASURES = words('笔 个 条 项');

/** 第二笔: the measure words after an ordinal (ASR often hears 笔 as 比 or 币). */
export const ORDINAL_MEASURES = words('笔 比 币 个 条 项 单 次 行');

/** 花三十块买了本书, 午饭吃了三十: a verb right before the amount belongs to it, not to the item. */
export const PAYING_VERBS = words(`
  人均 每人 实付 实际付了 实际花了 花了 花费了 花费 花掉 用了 用掉 付了 付 支付了 支付 消费了 消费 吃了 喝了 交了 充了
`);

/** 买花, 鲜花, 一束花: before these, 花 is a flower, not spending. */
export const FLOWER_BEFORE = words('买 鲜 送 插 献 种 养 束');

/** 不是30, 满100减20, 原价一百, 优惠了二十: before an amount, one that was denied or not paid. */
export const NOT_PAID = words('不是 不 满 减 减了 原价 原来 本来 优惠 优惠了 便宜 便宜了 省 省了 立减 抵扣 抵了 打折前');

/**
 * 一共二十, 加起来是三十: before an amount, a total (split.ts). It is no item of its own when it sums
 * the items said before it (鸡蛋十二块牛奶八块一共二十). Longer words first.
 */
export const TOTAL_WORDS = words('加起来一共 加起来总共 加在一起 加起来 一共 总共 合计 共计 总计 总额 总的 一起 共');

/** Between a total word and its amount: 一共花了二十, 总共是三十. */
export const TOTAL_VERBS = words('花了 花 用了 付了 就是 是 才 要 有 大概 大约 差不多 算下来');

/** 一百到两百, 三十或者四十: between two amounts, one amount the speaker is unsure of. */
export const RANGE_JOINERS = words('或者 到 至 或 ~ ～ —');

/**
 * 打车30不对35, 三十六哦不是二十六, 六十八不不不是八十六, 三十，我说错了，三十五: between two
 * amounts, the speaker takes the first back. Said once or more (不对不对), with 我 before it and 了
 * after it or not; 不 alone covers 不不不. No word here is another one plus 了 or a filler
 * (paid-amounts.ts reads them in a loop, where a word read two ways costs exponential time).
 */
export const TAKEN_BACK = words('说错 讲错 念错 记错 搞错 弄错 看错 报错 说反 错 口误 不对 不是 不 更正一下 更正 纠正一下 纠正');

/** 三十六，嗯，不是，二十六: said around TAKEN_BACK, none of them a word of the item; none is two others. */
export const TAKING_BACK_FILLERS = words('那个 嗯 啊 呃 额 哦 噢 唉 哎 诶 欸 呀 吧 不好意思 抱歉 对不起 sorry');

/** After TAKEN_BACK and before the amount meant: 不对，应该是三十五, 说错了，改成四十九. */
export const MEANT = words(`
  应该是 应该 其实是 实际是 实际上是 我是说 我想说 我的意思是 是说 正确的是 准确地说是 准确说是 改成 改为 换成 就是 是 花了 付了
`);

/**
 * 六百的外套, 一千三买的吸尘器, 外套六百块的: right after an amount, it is the price of a thing. In a
 * refund (paid-amounts.ts) that price is an attribute of what went back, not money moving.
 */
export const PRICE_MARKS = words('买来的 买回来的 买的 入手的 拍的 的');

/** 买了六百的外套: before an amount said as a price, a purchase told as an event, an item of its own. */
export const BOUGHT_BEFORE_PRICE = words('买了 购买了 购入了 入手了 订了 拍了 买 购买 购入 入手');

/** 退了两百二, 商家退给我六十五, 到账三百五: right before an amount, it is the money a refund gave back. */
export const REFUNDED_BEFORE = words(`
  退回来了 退回来 退回了 退回 退还了 退还 退给我了 退给我 退给了我 退了我 退我 退款 退了 退 返还了 返还 返给我 返了 返我 到账了 到账
  到手 进账 入账
`);

/** 两百二到账了, 两百二退回来了: right after an amount, it is the money a refund gave back. */
export const REFUNDED_AFTER = words('到账 到手 进账 入账 退回来 退回 退给我 退还 返还');

/** 六百的外套，又买了…: between a price and a later amount, a new item begins (ADDING_CONNECTIVES too). */
export const NEXT_ITEM_BETWEEN = words('又 然后 接着 随后 再 顺便');

/** 就28, 二十八块吧: the only words a reply that is just an amount may hold (amount-reply.ts). */
export const AMOUNT_REPLY_WORDS = words(`
  大概 大约 差不多 一共 总共 花了 用了 付了 就是 应该是 是 就 吧 啊 呀 呢 嘛 哦 噢 嗯 呃 额 了 的
`);
