// Words of money that moves between the user and people, and of money that comes back
// (src/main/core/nlp/people.ts, money-flow.ts): 借给小李, 跟我哥借了, 小李还了我, 退款, 报销到账, 可以报销.
import { words } from './words';

/** Kin, said with or without 我 (我哥, 表弟). Longer words first, so 表哥 wins over 哥. */
export const KIN = words(`
  外甥女 小舅子 小姨子 老丈人 丈母娘
  表哥 表姐 表弟 表妹 堂哥 堂姐 堂弟 堂妹 哥哥 姐姐 弟弟 妹妹 爸爸 妈妈 老爸 老妈 爷爷 奶奶 外公 外婆 姥姥 姥爷 叔叔 阿姨
  舅舅 舅妈 姑姑 姑父 姑妈 姨妈 姨父 婶婶 伯伯 伯父 伯母 大伯 二叔 三叔 小叔 大哥 二哥 大姐 二姐 小妹 老公 老婆 媳妇 丈夫 妻子
  儿子 女儿 岳父 岳母 公公 婆婆 嫂子 姐夫 妹夫 弟媳 侄子 侄女 外甥 亲戚 家里 家人 父母 爸妈
  爸 妈 哥 姐 弟 妹 叔 姨 舅 姑 爹 娘
`);

/** Before kin, which of several (大舅, 二姨, 小姑, 三哥): seniority, part of who the person is. */
export const KIN_SENIORITY = words('大 二 三 四 五 六 小 老');

/** People by what they are to the user. Longer words first. */
export const ROLES = words(`
  女朋友 男朋友 老板娘 合伙人 哥们儿 好朋友 老同学
  同事 同学 朋友 室友 舍友 房东 房客 租客 老板 领导 上司 邻居 老乡 客户 师傅 老师 师兄 师姐 师弟 师妹 闺蜜 兄弟 哥们 发小 女友
  男友 对象 前任 网友 同桌 队友 搭档 学长 学姐 学弟 学妹 战友 徒弟 下属 助理 司机 保姆 同乡 工友 球友 饭友
`);

/** Before a role: which one (大学同学, 隔壁邻居, 一个朋友). */
export const ROLE_MODIFIERS = words('大学 高中 初中 小学 公司 单位 隔壁 楼下 楼上 新 老 好 一个 一位 个 位');

/** Before kin or a role: whose (我哥, 我的同事, 我家老公). */
export const OWNERS = words('我的 我们的 我们 我家 我 咱家 咱们 咱');

/** Before one character of a name: 小李, 老王, 阿强. */
export const NAME_PREFIXES = words('小 老 阿');

/**
 * Family names that start a name (张三, 王老师, 刘总). Characters that more often start other
 * words after 还/借 (房贷, 车贷, 花呗, 钱, 路费, 信用卡) or are numerals (万) are left out on purpose.
 */
export const FAMILY_NAMES = words(`
  王 李 张 刘 陈 杨 黄 赵 周 吴 徐 孙 马 朱 胡 郭 何 林 罗 郑 梁 谢 宋 唐 许 韩 冯 邓 曹 彭 曾 肖 田 董 潘 袁 蔡 蒋 余 杜 叶
  程 魏 苏 吕 丁 任 卢 姚 沈 钟 姜 崔 谭 陆 范 汪 廖 贾 夏 邹 熊 孟 秦 邱 侯 尹 薛 闫 段 雷 黎 史 陶 贺 毛 郝 顾 龚 邵 严
  覃 武 戴 莫 孔 汤 温 康 施 牛 樊 葛 邢 齐 易 乔 伍 庞 颜 倪 庄 聂 章 鲁 岳 翟 殷 詹 耿 焦 俞 柳 祝 舒 阮 柯 纪 梅 童 凌 毕 裴
  霍 涂 苗 翁 冉 骆 蓝 辛 靳 柴 蒙 鲍 喻 祁 蒲 滕 屈 饶 牟 艾 尤 穆 卓 缪 褚 娄 窦 戚 岑 宫 卜 晏 瞿 桂 佟 臧 闵 邬 卞 姬 栾 隋 甄
`);

/** 张三, 李四, 王五: a family name and a numeral is a name, not money, right after or before these. */
export const NUMBERED_NAME_BEFORE = words('借给了 借给 还给 还了 收回 要回 借了 借 还 跟 向 找 问 从 给');
export const NUMBERED_NAME_AFTER = words('还 借 跟 向 把 的 那');
export const NAME_NUMERALS = words('一 二 三 四 五 六 七 八 九 十');

/** Not people, though they stand where a person would (还信用卡, 借书卡, 还价, 跟团). */
export const NOT_PEOPLE = words(`
  信用卡 房贷 车贷 贷款 网贷 花呗 借呗 白条 月付 分期 欠款 欠账 本金 利息 银行 价 钱 款 债 账 书 卡 团 他 她 它 他们 她们 人家 别人
  大家 自己 小费 小卖部 小吃 老家 小区 老地方
`);

/** Borrowed things that are no money: 从图书馆借书, 跟小李借车. */
export const BORROWED_THINGS = words('书 车 伞 充电宝 东西 衣服 房子 场地 工具 电脑 相机');

/**
 * Measure words of a thing: 借了把梯子, 借了辆车, 借了三本书 borrow an object, not money (借了个五百
 * still is money: an amount follows the measure word).
 */
export const THING_MEASURES = words('把 辆 台 本 件 张 条 套 只 支 双 部 顶 副 架 根 个');

/**
 * A debt named as a thing, then settled (src/main/core/nlp/money-flow.ts): 欠小李的五百还了,
 * 借给堂弟的两千收回来了. After such words the one named is who was paid or who paid back.
 */
export const SETTLING_VERBS = words('转给 打给 付给 给他 给她 转过去 打过去 付过去 还过去 给过去');

/** Getting lent money back: 收回, 要回来 (after a debt, or before one: 收回借给小李的). */
export const COLLECTING_VERBS = words('收回 要回 拿回 讨回');

/** After 还, the words that make it paying back (还了, 还清, 还我), not "still" (还没, 还在). */
export const PAID_OFF_AFTER = words('了 清 上 掉 完 给 我 回 钱 款');

/** Right before a settling verb, it did not happen (没还, 还没要回来). */
export const NOT_DONE_BEFORE = words('没 未 不 别');

/** A settled debt that came back to the user: 还我了, 收回来了, 转给我了. */
export const SETTLED_TO_USER = words('还给我 还了我 还我 转给我 转我 打给我 打我 给我 回来 收回 要回 拿回 讨回');

/** A settled debt the user paid: 转给他了, 还回去了, 我还了. */
export const SETTLED_BY_USER = words('给他 给她 过去 回去 我还 我已经还');

/** After 还给 and a person, a verb: 还 meant "also" (还给妈妈买了衣服), nothing was paid back. */
export const ACTS_FOR_PERSON = words('买 吃 喝 打 坐 交 充 花 点 去 看 要 用 付 加 发 带 寄 请 做 转 订 办 送');

/** Before a person: 跟我哥借了 (borrow), 给小李还了 (repay). */
export const FROM_PERSON = words('跟 向 找 问 从');

/** After a person who lent to the user: 从小李那里借了. */
export const PERSON_PLACE = words('那里 那儿 那边 那');

/**
 * Money back for something bought (退款, 那件衣服退了). After 退 only: 退休金 and 退税 are income,
 * 退出 and 退房 no money at all. Longer words first.
 */
export const REFUND_AFTER = words('货款 押金 款 钱 费 货 票 了 回 给 还 到');

/** After a refund word, it is a fee paid for returning (退货运费, 退票费, 退票手续费), which is spending. */
export const REFUND_FEES = words('手续费 运费 邮费 快递 费 险');

/** Said with a refund, not words of the item: 退款到账, 退回来了. */
export const REFUND_TRAILING = words('到账了 到账 到了 回来了 回来 进账 入账 收到了 收到');

/** Money that settles expenses the user advanced: 报销到账, 报销款, 收到报销. Longer words first. */
export const REIMBURSED = words(`
  报销款到账 报销款到了 报销的钱到了 报销的钱到账 报销到账了 报销到账 报销到了 报销下来了 报销下来 报销批下来 报销批了
  报销打过来 报销打来 报销发了 报销回来 报销进账 报销入账 报销款 收到报销 收到了报销 拿到报销 拿到了报销 报销了
`);

/** Who pays expenses back: 公司把差旅费报了, 帮部门垫付了. */
export const REIMBURSERS = words('公司 单位 部门 老板 领导 财务 学校 甲方 客户 团队 项目组 工作室 集团 总部 公家 科室 学院');

/** What was paid back, right before 报 (差旅费报了, 出差费报下来了, 打车钱报回来了). */
export const REIMBURSED_FEES = words('费 款 钱');

/** After a reimburser or a fee and 报 or 报销: it was paid back (报了, 报下来了, 报回来了). */
export const REIMBURSED_AFTER = words('下来 回来 了');

/** Before whom an expense is paid first (帮公司垫付, 替单位垫了, 给部门垫了). */
export const ADVANCED_FOR = words('帮 替 给 为');

/** After 垫, the words that make it paying first for someone (垫付, 垫钱), not a pad (鼠标垫, 垫子). */
export const ADVANCE_AFTER = words('付 支 资 款 钱');

/** Before 垫: paid first, to be paid back (先垫付, 提前垫了). */
export const ADVANCE_FIRST = words('先 提前');

/** After 报 (报了, 公司报, 要报), it is no reimbursement: 报了名, 报了个班, 公司报表, 报废. */
export const NOT_REIMBURSED_AFTER = words('名 班 个 团 警 案 税 价 表 纸 刊 告 道 到 考 关 废 修');

/** An expense that is to be paid back: 可以报销, 待报销. Longer words first. */
export const REIMBURSABLE = words(`
  还没报销 还没有报销 没报销 未报销 待报销 要报销 需要报销 可以报销 可报销 能报销 能够报销 准备报销 回头报销 到时候报销
  公司报销 单位报销 公司给报销 公司会报销 让公司报销 找公司报销 走报销 走公账 公司报 单位报 公费 可以报 能报 要报 待报
`);

/** Said of an expense that will not be paid back: 不能报销, 报不了. */
export const NOT_REIMBURSABLE = words('不能报销 不可以报销 不给报销 不让报销 没法报销 无法报销 报不了 不报销 不能报 已报销 已经报销');

/** Nouns about reimbursing that are no money (报销单打印五块). */
export const REIMBURSEMENT_NOUNS = words('报销单 报销表 报销凭证 报销材料 报销流程 报销发票 报销系统');
