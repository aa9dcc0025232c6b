// Keyword → preset category. Longest keyword wins; on equal length the earlier mention wins,
// then the order of this table. A category's own name is always one of its keywords.
import type { TransactionType } from '../../../shared/domain';
import { OTHER_CATEGORY, PRESET_CATEGORIES } from '../../../shared/categories';

export interface CategoryRef {
  name: string;
  type: TransactionType;
}

const EXPENSE_KEYWORDS: Record<string, string[]> = {
  餐饮: [
    '饮食', '酱油', '醋', '面', '碗面', '粮油', '米面', '水', '聚会', '同学聚会', '饭局', '聚', '撸串', '烤串', '羊肉串', '串', '下馆子', '馆子', '大排档', '饭团',
    '烧饼', '凉皮', '肉夹馍', '螺蛳粉', '黄焖鸡', '酸辣粉', '牛排', '鸡翅', '海鲜', '排骨', '猪肉', '牛肉', '羊肉', '鱼', '虾', '蛋挞', '月饼', '粽子',
    '汤圆', '元宵', '热狗', '吃', '喝', '饭菜', '吃东西', '花生', '食材', '饮用水', '买水', '桶装水', '酒水', '奶粉', '外卖费', '早午饭', '烧腊', '肠粉',
    '点心', '糕点', '坚果', '瓜子', '巧克力', '糖果', '饼干', '泡面', '方便面', '火腿肠', '吃饭', '早饭', '早餐', '早点', '午饭', '午餐', '中饭', '中午饭',
    '晚饭', '晚餐', '夜宵', '宵夜', '外卖', '点外卖', '奶茶', '咖啡', '饮料', '饮品', '果汁', '可乐', '雪碧', '矿泉水', '酸奶', '牛奶', '豆浆', '油条',
    '包子', '饺子', '馄饨', '面条', '拉面', '米线', '米粉', '麻辣烫', '火锅', '烧烤', '串串', '小龙虾', '炸鸡', '汉堡', '披萨', '寿司', '日料', '西餐',
    '自助餐', '快餐', '食堂', '盒饭', '便当', '聚餐', '请客吃饭', '下午茶', '甜品', '蛋糕', '面包', '冰淇淋', '雪糕', '零食', '水果', '买菜', '蔬菜', '肉',
    '菜', '饭', '餐', '肯德基', '麦当劳', '星巴克', '瑞幸', '喜茶', '蜜雪冰城', '口香糖', '啤酒', '喝酒', '白酒', '红酒', '茶叶', '喝茶', '粥', '煎饼',
    '三明治', '沙拉', '饭钱', '伙食', '伙食费', '苹果', '香蕉', '橙子', '西瓜', '葡萄', '草莓', '车厘子', '樱桃', '榴莲', '芒果', '橘子', '梨', '桃子',
    '鸡蛋', '大米', '面粉', '食用油', '调料', '牛肉面', '早茶', '烤肉', '烤鸭', '鸭脖', '卤味', '夜市', '小吃', '米饭', '炒饭', '盖饭', '馒头',
    'breakfast', 'brunch', 'lunch', 'dinner', 'coffee',
  ],
  交通: [
    '车位费', '车位', '出租', '包车', '打个车', '打了个车', '打了车', '叫车', '叫了个车', '坐了车', '专车', '快车', '打的', '货拉拉', '哈啰', '轻轨', '电车',
    '船', '渡轮', '机场大巴', '过路', '路桥费', '停车场', '停车位', '年检', '改签', '行李托运', '机建费', '燃油费', '油钱', '充电费', '电动车', '地铁票', '公交费',
    '打车费', '打车', '出租车', '的士', '滴滴', '网约车', '顺风车', '地铁', '公交', '公交车', '巴士', '大巴', '加油', '油费', '汽油', '停车', '停车费',
    '过路费', '高速费', '过桥费', '共享单车', '单车', '骑车', '火车', '火车票', '高铁', '动车', '机票', '飞机', '船票', '车票', '车费', '路费', '洗车', '代驾',
    '租车', '充电桩', '通勤', '交通卡', '公交卡', '地铁卡', 'etc', '坐车', '摩的', '轮渡', '违章', '罚单', '保养', '修车',
    'taxi', 'uber',
  ],
  购物: [
    '伞', '尿不湿', '束花', '花店', '纸尿裤', '烟', '香烟', '买烟', '烟酒', '头发', '剪发', '烫发', '染发', '洗头', '做头发', '吹头发', '羽绒服', '衬衫', '毛衣', '大衣',
    't恤', '卫衣', '运动鞋', '靴子', '内衣', '睡衣', '围巾', '手套', '服装', '衣', '背包', '钱包', '行李箱', '拖把', '扫把', '垃圾袋', '锅', '厨具',
    '餐具', '杯子', '水杯', '保温杯', '电池', '灯泡', '插座', '家居', '收纳', '衣架', '毛巾', '卫生纸', '洗洁精', '香水', '粉底', '防晒', '眼霜', '精华',
    '护肤', '化妆', '电视', '冰箱', '洗衣机', '微波炉', '吹风机', '电饭煲', '手机壳', '贴膜', '充电宝', 'ipad', 'iphone', '游戏机', '衣柜', '沙发',
    '桌子', '椅子', '窗帘', '地毯', '优衣库', '宜家', '唯品会', '日用', '百货', '生活用品', '买了点东西', '东西', '剃须刀', '洗面奶', '卸妆', '包', '鞋垫',
    '手链', '项链', '戒指', '购物', '买东西', '衣服', '买衣服', '裤子', '裙子', '外套', '鞋', '鞋子', '袜子', '帽子', '包包', '淘宝', '京东', '拼多多',
    '天猫', '网购', '超市', '商场', '便利店', '日用品', '化妆品', '护肤品', '口红', '面膜', '电脑', '笔记本电脑', '手机', '耳机', '平板', '相机', '家电',
    '电器', '数码', '家具', '纸巾', '洗发水', '沐浴露', '牙膏', '牙刷', '洗衣液', '眼镜', '首饰', '书包', '文具盒', '苹果手机', '苹果电脑', '鲜花', '买花',
    '花束', '理发', '剪头发', '美发', '美甲', '美容', '手表', '玩具', '键盘', '鼠标', '显示器', '充电器', '数据线', '床单', '被子', '枕头', '雨伞',
  ],
  账单: [
    '燃气', '煤气', '手机充值', '给手机充', '手机充', '电话费', '手机套餐', '年费', '物业水电', '水电燃气', '保险费', '车险', '社保', '医保', 'icloud', '云存储', '月租', '电费', '水费',
    '燃气费', '煤气费', '天然气', '网费', '宽带', '话费', '手机费', '充话费', '流量', '有线电视', '暖气费', '取暖费', '保险', '会员费', '订阅', '信用卡', '水电',
    '水电费', '缴费', '账单', '充值',
  ],
  娱乐: [
    '电影院', '影院', '看戏', '相声', '音乐节', '剧场', '球赛', '网球', '足球', '跑步', '瑜伽', '普拉提', '私教', '攀岩', '射箭', '骑马', '钓鱼', '露营',
    '爬山', '漂流', '蹦床', '卡丁车', '电玩城', '电玩', '抓娃娃', '娃娃机', '麻将', '棋牌', '打牌', '足浴', '采耳', '搓澡', '大会员', '手游', '抽卡', '漫展',
    'steam', '看演出', '听音乐会', 'livehouse', '游乐场', '动物园', '水族馆', '博物馆', '娱乐', '电影', '看电影', '电影票', 'ktv', '唱歌', '唱k',
    '游戏', '游戏充值', '演唱会', '音乐会', '话剧', '演出', '展览', '健身', '健身房', '游泳', '打球', '篮球', '羽毛球', '乒乓球', '台球', '保龄球', '酒吧',
    '网吧', '桌游', '剧本杀', '密室', '密室逃脱', '视频会员', '爱奇艺', '腾讯视频', '优酷', '网易云', '会员', '洗脚', '足疗', '按摩', '推拿', '洗浴', '洗澡',
    '桑拿', '汗蒸', 'spa', '泡温泉', '温泉', '游乐园', '迪士尼', '门票', '玩', '滑雪', '蹦迪',
  ],
  医疗: [
    '医生', '急诊', '化验', '拍片', 'ct', '彩超', 'b超', '核磁', '药品', '药膏', '创可贴', '口罩', '维生素', '保健品', '中医', '针灸', '挂水', '牙科',
    '正畸', '矫正牙齿', '心理咨询', '感冒', '发烧', '咳嗽', '生病', '病', '医保卡', '医药', '复查', '开药', '拿药', '医疗', '看病', '看医生', '医院', '挂号',
    '挂号费', '药', '买药', '药店', '药费', '医药费', '体检', '牙医', '看牙', '拔牙', '补牙', '洗牙', '诊所', '门诊', '住院', '手术', '检查', '疫苗',
    '打针', '输液', '感冒药', '中药', '眼科', '配眼镜', '理疗', '核酸', '吃药', '看病拿药',
  ],
  教育: [
    '钢琴', '学琴', '舞蹈', '美术', '绘画', '画画', '书法', '编程', '课', '讲座', '学校', '幼儿园', '托班', '早教', '夏令营', '冬令营', '研学', '考研',
    '考证', '雅思', '托福', '四六级', '教辅', '练习册', '试卷', '作业本', '学杂费', '书本费', '学费', '杂志', '报纸', '教育', '培训', '培训费', '课程', '网课',
    '上课', '书', '买书', '书本', '图书', '教材', '课本', '补习', '辅导', '辅导班', '补习班', '考试', '报名费', '考试费', '报班', '学习', '学习资料', '资料',
    '文具', '家教', '驾校', '兴趣班', '英语课', '钢琴课', '课时费', '书费', '知识付费',
  ],
  住房: [
    '房子', '修水管', '换锁', '开锁', '家政', '保洁', '钟点工', '建材', '油漆', '宿舍费', '水管', '下水道', '暖气维修', '住房', '房租', '租金', '租房', '交房租',
    '房贷', '月供', '物业', '物业费', '装修', '维修', '修理', '中介费', '押金', '房费', '搬家', '管理费',
  ],
  人情往来: [
    '结婚', '婚礼', '满月酒', '满月', '百日宴', '寿宴', '探望', '看望', '慰问', '伴手礼', '白事', '丧事', '喜糖', '贺礼', '彩礼', '给爸妈', '给父母', '生活费',
    '赡养', '礼品', '礼盒', '送人', '人情往来', '人情', '份子钱', '份子', '随礼', '随份子', '礼金', '礼钱', '发红包', '送礼', '礼物', '买礼物', '请客', '孝敬',
    '红白喜事', '喜酒', '生日礼物', '压岁钱',
  ],
  宠物: [
    '猫', '狗', '猫罐头', '冻干', '宠物美容', '绝育', '鱼缸', '仓鼠', '猫咪', '狗狗', '铲屎', '宠物', '猫粮', '狗粮', '猫砂', '宠物医院', '兽医', '驱虫',
    '宠物店', '逗猫棒',
  ],
  // Known to be none of the above, so 其他 rather than unknown (菜鸟驿站 is not 餐饮).
  其他: [
    '顺丰', '圆通', '中通', '韵达', '申通', '邮费', '运费', '个税', '税', '党费', '会费', '配钥匙', '快递', '寄快递', '菜鸟驿站', '打印', '复印', '罚款',
    '捐款', '捐赠', '手续费', '彩票', '买彩票',
  ],
  旅行: [
    '宾馆', '旅馆', '客栈', '青旅', '索道', '缆车', '纪念品', '团费', '旅行社', '护照', '出国', '自驾游', '度假村', '酒店住宿', '旅行', '旅游', '酒店',
    '住酒店', '民宿', '景点', '景区', '出游', '度假', '跟团', '导游', '签证', '住宿',
  ],
};

const INCOME_KEYWORDS: Record<string, string[]> = {
  工资: ['薪酬', '加班费', '工资条', '发薪日', '工资', '发工资', '薪水', '薪资', '月薪', '工钱', '底薪', '发薪'],
  奖金: ['年终', '季度奖', '项目奖', '奖', '奖金', '年终奖', '绩效', '绩效奖', '提成', '奖励', '全勤奖', '分红', '中奖', '过节费'],
  兼职: [
    '家教', '做家教', '私活', '接私活', '接单', '跑腿', '代购', '外包', '咨询费', '讲课费', '劳务费', '佣金', '私单', '兼职', '兼职收入', '外快', '副业',
    '稿费', '打零工', '零工', '家教费',
  ],
  红包: ['红包', '收红包', '抢红包', '利是', '压岁钱'],
  // Income with no preset of its own.
  其他: ['利息', '理财', '收益', '基金', '股票', '闲鱼', '二手', '货款', '租金', '房租', '生活费', '彩票'],
};

interface Keyword {
  word: string;
  category: CategoryRef;
}

function buildKeywords(): Keyword[] {
  const list: Keyword[] = [];
  const add = (table: Record<string, string[]>, type: TransactionType) => {
    for (const [name, words] of Object.entries(table)) {
      for (const word of [name, ...words]) list.push({ word, category: { name, type } });
    }
  };
  // Expense first: a word in both tables (房租, 家教) said without an income word is spending.
  add(EXPENSE_KEYWORDS, 'EXPENSE');
  add(INCOME_KEYWORDS, 'INCOME');
  for (const preset of PRESET_CATEGORIES) {
    if (preset.name === '其他') continue;
    if (!list.some((k) => k.word === preset.name && k.category.type === preset.type)) {
      list.push({ word: preset.name, category: { name: preset.name, type: preset.type } });
    }
  }
  return list;
}

/** Keywords indexed by first character, longest first within each bucket. */
export class KeywordIndex {
  private readonly byFirst = new Map<string, Keyword[]>();

  constructor(keywords: readonly Keyword[]) {
    for (const k of keywords) {
      const first = k.word[0]!;
      const bucket = this.byFirst.get(first) ?? [];
      if (!bucket.some((b) => b.word === k.word && b.category.type === k.category.type)) bucket.push(k);
      this.byFirst.set(first, bucket);
    }
    for (const bucket of this.byFirst.values()) bucket.sort((a, b) => b.word.length - a.word.length);
  }

  /** The longest keyword in `text`; ties go to the earliest position. */
  longest(text: string, accept?: (k: Keyword) => boolean): (Keyword & { start: number }) | null {
    let best: (Keyword & { start: number }) | null = null;
    for (let i = 0; i < text.length; i++) {
      const bucket = this.byFirst.get(text[i]!);
      if (!bucket) continue;
      for (const k of bucket) {
        if (best && k.word.length <= best.word.length) break;
        if (text.startsWith(k.word, i) && (!accept || accept(k))) {
          best = { ...k, start: i };
          break;
        }
      }
    }
    return best;
  }
}

const DEFAULT_KEYWORDS = buildKeywords();
const DEFAULT_INDEX = new KeywordIndex(DEFAULT_KEYWORDS);

/**
 * Latin words that end a service keyword (ktv, spa, the k of 唱k): a number right after them is
 * money. Products are left out: after iphone or ipad a number is the model.
 */
export const LATIN_ITEM_WORDS: ReadonlySet<string> = new Set(
  DEFAULT_KEYWORDS.filter((k) => k.category.name !== '购物')
    .map((k) => /[a-z]+$/.exec(k.word)?.[0])
    .filter((w): w is string => w !== undefined),
);

const PRESET_NAMES = new Set(PRESET_CATEGORIES.filter((c) => c.name !== '其他').map((c) => c.name));

export interface CategoryMatch extends CategoryRef {
  keyword: string;
  start: number;
  /** True when the user named the category itself (改成交通), not an item word (打车). */
  byName: boolean;
  custom: boolean;
}

/**
 * The category a text talks about. A custom category named in the text wins; then the longest
 * lexicon keyword. `accept` can restrict the match (e.g. to one transaction type).
 */
export function matchCategoryWord(
  text: string,
  customCategories: readonly CategoryRef[] = [],
  accept?: (c: CategoryRef, keyword: string) => boolean,
): CategoryMatch | null {
  if (customCategories.length > 0) {
    const custom = new KeywordIndex(
      customCategories.filter((c) => c.name.length > 0).map((c) => ({ word: c.name.toLowerCase(), category: c })),
    ).longest(text, (k) => !accept || accept(k.category, k.word));
    if (custom) return { ...custom.category, keyword: custom.word, start: custom.start, byName: true, custom: true };
  }
  const hit = DEFAULT_INDEX.longest(text, (k) => !accept || accept(k.category, k.word));
  if (!hit) return null;
  return {
    ...hit.category,
    keyword: hit.word,
    start: hit.start,
    byName: hit.word === hit.category.name && (PRESET_NAMES.has(hit.word) || hit.word === OTHER_CATEGORY),
    custom: false,
  };
}
