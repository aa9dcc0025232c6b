// Words that name the sub-categories people make (餐饮 › 早餐/午餐/晚餐, 交通 › 打车/地铁): each
// line is one set of words for the same thing. A user's sub-category named by ANY word of a
// set takes an item whose words hold any word of that set (早饭包子 → 早餐, and → 早饭 for
// a user who named the child 早饭). Used by src/main/core/categories/sub-category.ts.
import { words } from './words';

export const SUB_CATEGORY_SYNONYMS: readonly (readonly string[])[] = [
  words('早餐 早饭 早点 早茶 早午餐'),
  words('午餐 午饭 中饭 中午饭 工作餐'),
  words('晚餐 晚饭 晚上饭'),
  words('夜宵 宵夜 消夜'),
  words('零食 薯片 辣条 瓜子 饼干 糖果 巧克力 坚果 小吃'),
  words('水果 苹果 香蕉 西瓜 葡萄 橙子 橘子 草莓 车厘子 榴莲 芒果'),
  words('饮料 饮品 可乐 果汁 矿泉水 汽水'),
  words('咖啡 拿铁 美式 星巴克 瑞幸'),
  words('奶茶 喜茶 蜜雪冰城'),
  words('买菜 菜市场 蔬菜 生鲜 肉菜'),
  words('外卖 美团外卖 饿了么'),
  words('聚餐 请客 饭局'),
  words('打车 出租车 的士 滴滴 网约车 快车'),
  words('地铁 轻轨'),
  words('公交 公交车 巴士'),
  words('加油 油费 汽油'),
  words('停车 停车费'),
  words('高铁 火车 动车 火车票 高铁票'),
  words('机票 飞机'),
  words('过路费 高速费 路费'),
  words('话费 手机费 充话费'),
  words('房租 租金 交房租'),
  words('水费 水电费'),
  words('电费 电费单'),
  words('燃气 煤气 燃气费'),
  words('物业 物业费'),
  words('宽带 网费'),
  words('衣服 衣裳 裤子 外套 衬衫 裙子 T恤'),
  words('鞋 鞋子 球鞋 运动鞋'),
  words('电影 电影票'),
  words('游戏 充值游戏'),
  words('买药 药店 药费 药品'),
  words('挂号 门诊 看病'),
  words('图书 买书 书籍'),
  words('学费 培训 课程'),
];
