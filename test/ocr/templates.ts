// HTML pages that look like the payment screens, receipts and invoices people photograph or
// screenshot, for the picture tests to render in headless Chromium. Every merchant, amount,
// name and order number here is invented; the layouts follow what those apps show (a status
// bar, a title, grey labels on the left and values on the right), not any real screenshot.

export type Theme = 'light' | 'dark';

/** A page to render: its CSS size and the device scale that gives the picture's pixels. */
export interface TemplatePage {
  html: string;
  width: number;
  height: number;
  scale: number;
}

/** A template's parameters, as cases.json writes them. */
export type TemplateParams = Readonly<Record<string, unknown>>;

type Template = (params: TemplateParams, theme: Theme) => TemplatePage;

interface Palette {
  page: string;
  card: string;
  text: string;
  grey: string;
  line: string;
  accent: string;
}

const WECHAT: Record<Theme, Palette> = {
  light: { page: '#ededed', card: '#ffffff', text: '#191919', grey: '#888888', line: '#e5e5e5', accent: '#07c160' },
  dark: { page: '#111111', card: '#191919', text: '#d5d5d5', grey: '#7d7d7d', line: '#2a2a2a', accent: '#06ad56' },
};
const ALIPAY: Record<Theme, Palette> = {
  light: { page: '#f5f5f5', card: '#ffffff', text: '#333333', grey: '#999999', line: '#eeeeee', accent: '#1677ff' },
  dark: { page: '#0d0d0d', card: '#1c1c1e', text: '#e5e5e5', grey: '#8c8c8c', line: '#2c2c2e', accent: '#3c8cff' },
};
const MEITUAN: Palette = { page: '#f4f4f4', card: '#ffffff', text: '#222222', grey: '#999999', line: '#eeeeee', accent: '#ffc300' };
const ELEME: Palette = { page: '#f5f5f5', card: '#ffffff', text: '#333333', grey: '#999999', line: '#eeeeee', accent: '#0089ff' };
const TAOBAO: Record<Theme, Palette> = {
  light: { page: '#f2f2f2', card: '#ffffff', text: '#111111', grey: '#999999', line: '#eeeeee', accent: '#ff5000' },
  dark: { page: '#000000', card: '#1a1a1a', text: '#e0e0e0', grey: '#8a8a8a', line: '#2a2a2a', accent: '#ff6a1a' },
};
const JD: Palette = { page: '#f2f2f2', card: '#ffffff', text: '#1a1a1a', grey: '#8c8c8c', line: '#eeeeee', accent: '#e4393c' };
const UNIONPAY: Record<Theme, Palette> = {
  light: { page: '#f6f7f9', card: '#ffffff', text: '#222222', grey: '#8f8f8f', line: '#ececec', accent: '#e60012' },
  dark: { page: '#121212', card: '#1e1e1e', text: '#e8e8e8', grey: '#8a8a8a', line: '#303030', accent: '#ff4a4a' },
};
const SMS: Record<Theme, Palette> = {
  light: { page: '#ffffff', card: '#f0f0f0', text: '#000000', grey: '#8e8e93', line: '#e5e5ea', accent: '#007aff' },
  dark: { page: '#000000', card: '#26252a', text: '#ffffff', grey: '#8e8e93', line: '#38383a', accent: '#0a84ff' },
};

const FONT = "'WenQuanYi Micro Hei', sans-serif";
const MONO = "'WenQuanYi Micro Hei Mono', 'WenQuanYi Micro Hei', monospace";

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function str(p: TemplateParams, key: string, fallback?: string): string {
  const v = p[key];
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  if (fallback !== undefined) return fallback;
  throw new Error(`template parameter ${key} missing`);
}

function num(p: TemplateParams, key: string, fallback: number): number {
  const v = p[key];
  return typeof v === 'number' ? v : fallback;
}

function pairs(p: TemplateParams, key: string): [string, string][] {
  const v = p[key];
  if (!Array.isArray(v)) return [];
  return v.map((row) => {
    if (!Array.isArray(row) || row.length !== 2) throw new Error(`template parameter ${key}: rows of [label, value]`);
    return [String(row[0]), String(row[1])];
  });
}

function list(p: TemplateParams, key: string): string[] {
  const v = p[key];
  return Array.isArray(v) ? v.map(String) : [];
}

/** A phone screen: 360 CSS px wide, scaled 3× (1080 px) unless the case asks for 1.5× (540 px). */
function phone(p: TemplateParams, background: string, color: string, css: string, body: string): TemplatePage {
  const height = num(p, 'height', 780);
  const scale = num(p, 'scale', 3);
  const html = `<!doctype html><html><head><meta charset="utf-8"><style>
    * { box-sizing: border-box; }
    html, body { margin: 0; padding: 0; }
    body { width: 360px; height: ${height}px; overflow: hidden; background: ${background}; color: ${color};
      font-family: ${FONT}; font-size: 14px; -webkit-font-smoothing: antialiased; }
    .status { height: 30px; display: flex; align-items: center; justify-content: space-between; padding: 0 18px;
      font-size: 14px; font-weight: bold; }
    .status .right { display: flex; align-items: center; gap: 6px; font-size: 12px; }
    .bars { display: flex; align-items: flex-end; gap: 2px; height: 11px; }
    .bars i { display: block; width: 3px; background: currentColor; border-radius: 1px; }
    .battery { width: 24px; height: 11px; border: 1.5px solid currentColor; border-radius: 3px; padding: 1px; opacity: .9; }
    .battery i { display: block; height: 100%; background: currentColor; border-radius: 1px; }
    .nav { height: 44px; display: flex; align-items: center; justify-content: center; position: relative; font-size: 17px; }
    .nav .back { position: absolute; left: 14px; top: 10px; width: 12px; height: 12px; margin-top: 5px;
      border-left: 2px solid currentColor; border-bottom: 2px solid currentColor; transform: rotate(45deg); }
    .nav .more { position: absolute; right: 16px; top: 12px; font-size: 18px; letter-spacing: 1px; }
    .row { display: flex; justify-content: space-between; align-items: flex-start; padding: 9px 0; gap: 16px; }
    .row .k { flex: 0 0 auto; min-width: 72px; }
    .row .v { text-align: right; word-break: break-all; }
    ${css}
  </style></head><body>${body}</body></html>`;
  return { html, width: 360, height, scale };
}

function statusBar(p: TemplateParams): string {
  const battery = num(p, 'battery', 76);
  return `<div class="status"><span>${esc(str(p, 'clock', '12:06'))}</span><span class="right">
    <span class="bars"><i style="height:4px"></i><i style="height:6px"></i><i style="height:8px"></i><i style="height:11px"></i></span>
    <span>5G</span><span class="battery"><i style="width:${battery}%"></i></span><span>${battery}</span></span></div>`;
}

function nav(title: string, more = true): string {
  return `<div class="nav"><span class="back"></span><span>${esc(title)}</span>${more ? '<span class="more">···</span>' : ''}</div>`;
}

function rows(items: [string, string][], c: Palette): string {
  return items
    .map(([k, v]) => `<div class="row"><span class="k" style="color:${c.grey}">${esc(k)}</span><span class="v">${esc(v)}</span></div>`)
    .join('');
}

function avatar(text: string, background: string, size = 44, margin = '0 auto'): string {
  return `<div style="width:${size}px;height:${size}px;border-radius:50%;background:${background};color:#fff;display:flex;flex:0 0 auto;
    align-items:center;justify-content:center;font-size:${Math.round(size * 0.42)}px;margin:${margin}">${esc(text.slice(0, 1))}</div>`;
}

function check(color: string, size = 56): string {
  return `<div style="width:${size}px;height:${size}px;border-radius:50%;background:${color};margin:0 auto;position:relative">
    <div style="position:absolute;left:${size * 0.3}px;top:${size * 0.2}px;width:${size * 0.24}px;height:${size * 0.44}px;
      border-right:${size * 0.07}px solid #fff;border-bottom:${size * 0.07}px solid #fff;transform:rotate(45deg)"></div></div>`;
}

/** WeChat Pay's result page after paying a shop: 支付成功, the shop, the amount, 完成. */
const wechatSuccess: Template = (p, theme) => {
  const c = WECHAT[theme];
  const page = theme === 'light' ? '#ffffff' : c.page;
  const body = `${statusBar(p)}
    <div style="height:44px;display:flex;align-items:center;padding:0 16px;font-size:15px;color:${c.grey}">微信支付</div>
    <div style="margin-top:40px">${check(c.accent, 60)}</div>
    <div style="text-align:center;font-size:19px;color:${c.accent};margin-top:18px">支付成功</div>
    <div style="text-align:center;font-size:16px;margin-top:30px">${esc(str(p, 'merchant'))}</div>
    <div style="text-align:center;font-size:42px;font-weight:bold;margin-top:10px">¥${esc(str(p, 'amount'))}</div>
    <div style="margin:42px 28px 0;border-top:1px solid ${c.line};padding-top:6px">${rows(pairs(p, 'rows'), c)}</div>
    <div style="position:absolute;left:0;right:0;top:${num(p, 'height', 780) - 150}px">
      <div style="width:150px;margin:0 auto;border-radius:6px;padding:11px 0;text-align:center;font-size:17px;
        background:${theme === 'light' ? '#f2f2f2' : '#2c2c2c'};color:${c.accent}">完成</div></div>`;
  return phone(p, page, c.text, '', body);
};

/** WeChat's 账单详情 of one payment (我 → 服务 → 钱包 → 账单). */
const wechatBill: Template = (p, theme) => {
  const c = WECHAT[theme];
  const body = `${statusBar(p)}${nav('账单详情')}
    <div style="background:${c.card};margin:0;padding:26px 22px 10px">
      ${avatar(str(p, 'merchant'), str(p, 'avatar', '#f0a020'))}
      <div style="text-align:center;font-size:16px;margin-top:12px">${esc(str(p, 'merchant'))}</div>
      <div style="text-align:center;font-size:34px;font-weight:bold;margin:10px 0 22px">${esc(str(p, 'amount'))}</div>
      <div style="border-top:1px solid ${c.line};padding-top:8px">${rows(pairs(p, 'rows'), c)}</div>
    </div>
    <div style="background:${c.card};margin-top:10px;padding:4px 22px">
      ${['账单服务', '对订单有疑惑', '在此商户的交易'].map((t) => `<div style="padding:13px 0;border-bottom:1px solid ${c.line}">${t}</div>`).join('')}
    </div>`;
  return phone(p, c.page, c.text, '', body);
};

/** Alipay's 账单详情: a purchase, a refund (退款成功) or a transfer to a person. */
const alipayBill: Template = (p, theme) => {
  const c = ALIPAY[theme];
  const status = str(p, 'status', '交易成功');
  const body = `${statusBar(p)}${nav('账单详情')}
    <div style="background:${c.card};margin:8px 10px;border-radius:10px;padding:24px 18px 8px">
      ${avatar(str(p, 'merchant'), str(p, 'avatar', c.accent), 40)}
      <div style="text-align:center;font-size:15px;margin-top:10px">${esc(str(p, 'merchant'))}</div>
      <div style="text-align:center;font-size:34px;font-weight:bold;margin:10px 0 4px">${esc(str(p, 'amount'))}</div>
      <div style="text-align:center;font-size:14px;color:${status === '交易成功' ? c.grey : '#ff8f1f'};margin-bottom:16px">${esc(status)}</div>
      <div style="border-top:1px solid ${c.line};padding-top:6px">${rows(pairs(p, 'rows'), c)}</div>
    </div>
    <div style="background:${c.card};margin:8px 10px;border-radius:10px;padding:2px 18px">
      ${['计入收支', '标签和备注', '对此订单有疑问']
        .map((t, i) => `<div style="padding:13px 0;${i < 2 ? `border-bottom:1px solid ${c.line}` : ''}">${t}</div>`)
        .join('')}
    </div>`;
  return phone(p, c.page, c.text, '', body);
};

interface OrderStyle {
  palette: Palette;
  title: string;
  paidLabel: string;
}

/** An order page of a shopping or delivery app: the shop, its lines, the fees, what was paid, the order's facts. */
function orderPage(p: TemplateParams, theme: Theme, style: OrderStyle): TemplatePage {
  const c = style.palette;
  const items = pairs(p, 'items')
    .map(([name, price]) => {
      const [title, count] = name.split('|');
      return `<div style="display:flex;justify-content:space-between;padding:8px 0"><span>${esc(title ?? '')}</span>
        <span><span style="color:${c.grey};margin-right:18px">${esc(count ?? '')}</span>${esc(price)}</span></div>`;
    })
    .join('');
  const fees = rows(pairs(p, 'fees'), c);
  const body = `${statusBar(p)}${nav(style.title)}
    <div style="padding:10px 16px 16px;font-size:22px;font-weight:bold">${esc(str(p, 'status'))}</div>
    ${p['note'] ? `<div style="padding:0 16px 14px;color:${c.grey};font-size:13px">${esc(str(p, 'note'))}</div>` : ''}
    <div style="background:${c.card};margin:0 10px;border-radius:10px;padding:14px 16px">
      <div style="font-size:16px;font-weight:bold;padding-bottom:10px;border-bottom:1px solid ${c.line}">${esc(str(p, 'shop'))} &gt;</div>
      ${items}
      <div style="border-top:1px solid ${c.line};margin-top:6px;padding-top:4px">${fees}</div>
      <div style="display:flex;justify-content:flex-end;align-items:baseline;gap:6px;padding-top:8px">
        <span>${esc(style.paidLabel)}</span><span style="font-size:20px;font-weight:bold;color:${theme === 'light' ? '#111' : '#eee'}">¥${esc(str(p, 'paid'))}</span></div>
    </div>
    <div style="background:${c.card};margin:10px;border-radius:10px;padding:8px 16px">
      <div style="font-weight:bold;padding:6px 0">订单信息</div>${rows(pairs(p, 'rows'), c)}</div>`;
  return phone(p, c.page, c.text, '', body);
}

const meituan: Template = (p) => orderPage(p, 'light', { palette: MEITUAN, title: '订单详情', paidLabel: '实付款' });
const eleme: Template = (p) => orderPage(p, 'light', { palette: ELEME, title: '订单详情', paidLabel: str(p, 'paidLabel', '实付') });
const taobao: Template = (p, theme) => orderPage(p, theme, { palette: TAOBAO[theme], title: '订单详情', paidLabel: '实付款' });
const jd: Template = (p) => orderPage(p, 'light', { palette: JD, title: '订单详情', paidLabel: '实付款' });

/** 云闪付's result after a QR payment. */
const unionpay: Template = (p, theme) => {
  const c = UNIONPAY[theme];
  const body = `${statusBar(p)}${nav('支付结果', false)}
    <div style="background:${c.card};margin:10px 12px;border-radius:12px;padding:30px 20px 14px">
      ${check('#2bb673', 52)}
      <div style="text-align:center;font-size:18px;margin-top:14px">付款成功</div>
      <div style="text-align:center;font-size:38px;font-weight:bold;margin:12px 0 24px">¥${esc(str(p, 'amount'))}</div>
      <div style="border-top:1px solid ${c.line};padding-top:6px">${rows(pairs(p, 'rows'), c)}</div>
    </div>
    <div style="margin:30px 40px;border-radius:22px;background:${c.accent};color:#fff;text-align:center;padding:11px 0;font-size:16px">完成</div>
    <div style="text-align:center;color:${c.grey};font-size:12px;margin-top:${num(p, 'height', 780) - 560}px">云闪付 · 中国银联</div>`;
  return phone(p, c.page, c.text, '', body);
};

/** A bank's payment notice in the phone's messages app. */
const bankSms: Template = (p, theme) => {
  const c = SMS[theme];
  const body = `${statusBar(p)}
    <div style="text-align:center;padding:4px 0 10px;border-bottom:1px solid ${c.line}">
      ${avatar(str(p, 'sender'), '#a0a4ab', 42)}
      <div style="font-size:12px;margin-top:4px">${esc(str(p, 'sender'))} &gt;</div></div>
    <div style="text-align:center;color:${c.grey};font-size:12px;margin:16px 0 8px">短信/彩信</div>
    <div style="text-align:center;color:${c.grey};font-size:12px;margin:0 0 10px">${esc(str(p, 'stamp'))}</div>
    <div style="margin:0 70px 0 14px;background:${c.card};border-radius:18px;padding:10px 14px;font-size:16px;line-height:1.45">${esc(str(p, 'text'))}</div>
    <div style="position:absolute;left:0;right:0;top:${num(p, 'height', 780) - 60}px;padding:0 14px;display:flex;gap:10px;align-items:center">
      <div style="flex:1;border:1px solid ${c.line};border-radius:18px;padding:8px 14px;color:${c.grey}">短信</div></div>`;
  return phone(p, c.page, c.text, '', body);
};

/** A chat between friends that talks about money but is no payment. */
const chat: Template = (p, theme) => {
  const c = WECHAT[theme];
  const mine = theme === 'light' ? '#95ec69' : '#3eb575';
  const other = theme === 'light' ? '#ffffff' : '#2c2c2c';
  const bubbles = pairs(p, 'messages')
    .map(([who, text]) => {
      if (who === 'time') return `<div style="text-align:center;color:${c.grey};font-size:12px;margin:14px 0">${esc(text)}</div>`;
      const me = who === 'me';
      return `<div style="display:flex;${me ? 'flex-direction:row-reverse;' : ''}gap:8px;margin:10px 12px;align-items:flex-start">
        ${avatar(me ? '我' : str(p, 'friend'), me ? '#6a8dd4' : '#d48a6a', 38, '0')}
        <div style="max-width:230px;background:${me ? mine : other};color:${me && theme === 'light' ? '#111' : c.text};border-radius:5px;padding:9px 12px;font-size:16px">${esc(text)}</div></div>`;
    })
    .join('');
  const body = `${statusBar(p)}${nav(str(p, 'friend'))}<div style="border-top:1px solid ${c.line}">${bubbles}</div>`;
  return phone(p, c.page, c.text, '', body);
};

/** A narrow paper slip (a till receipt, a taxi receipt): black on off-white, a monospace font. */
function paper(p: TemplateParams, body: string): TemplatePage {
  const width = num(p, 'width', 300);
  const scale = num(p, 'scale', 2);
  const html = `<!doctype html><html><head><meta charset="utf-8"><style>
    html, body { margin: 0; padding: 0; }
    body { width: ${width}px; background: #fbfaf6; color: #1d1d1d; font-family: ${MONO}; font-size: 13px; line-height: 1.55; }
    .slip { padding: 22px 14px 30px; }
    .c { text-align: center; }
    .t { font-size: 18px; font-weight: bold; text-align: center; margin-bottom: 4px; }
    .rule { border-top: 1px dashed #555; margin: 6px 0; }
    .kv { display: flex; justify-content: space-between; }
    table { width: 100%; border-collapse: collapse; font-size: 13px; }
    td { padding: 1px 0; vertical-align: top; }
    td.n { text-align: right; white-space: nowrap; padding-left: 6px; }
  </style></head><body><div class="slip">${body}</div></body></html>`;
  // The height is the content's: the renderer measures the slip.
  return { html, width, height: 0, scale };
}

/** A supermarket till receipt: item lines (name, quantity, price, amount), then 合计 / 优惠 / 实付. */
const receipt: Template = (p) => {
  const items = list(p, 'items').map((line) => line.split('|'));
  const lines = items
    .map(
      ([name = '', qty = '', price = '', amount = '']) =>
        `<tr><td>${esc(name)}</td><td class="n">${esc(qty)}</td><td class="n">${esc(price)}</td><td class="n">${esc(amount)}</td></tr>`,
    )
    .join('');
  const totals = pairs(p, 'totals')
    .map(([k, v]) => `<div class="kv"><span>${esc(k)}</span><span>${esc(v)}</span></div>`)
    .join('');
  const body = `<div class="t">${esc(str(p, 'shop'))}</div><div class="c">${esc(str(p, 'branch'))}</div>
    <div class="rule"></div>${rowsPlain(pairs(p, 'head'))}<div class="rule"></div>
    <table><tr><td>品名</td><td class="n">数量</td><td class="n">单价</td><td class="n">金额</td></tr>${lines}</table>
    <div class="rule"></div>${totals}<div class="rule"></div>${rowsPlain(pairs(p, 'foot'))}
    <div class="c" style="margin-top:8px">谢谢惠顾 欢迎再次光临</div>`;
  return paper(p, body);
};

function rowsPlain(items: [string, string][]): string {
  return items.map(([k, v]) => `<div class="kv"><span>${esc(k)}</span><span>${esc(v)}</span></div>`).join('');
}

/** A printed taxi receipt (出租汽车专用发票). */
const taxiReceipt: Template = (p) => {
  const body = `<div class="t">${esc(str(p, 'title'))}</div><div class="rule"></div>${rowsPlain(pairs(p, 'rows'))}
    <div class="rule"></div><div class="kv" style="font-size:16px;font-weight:bold"><span>金额</span><span>${esc(str(p, 'amount'))}</span></div>
    <div class="rule"></div>${rowsPlain(pairs(p, 'foot'))}`;
  return paper(p, body);
};

/** A ride-hailing trip statement (行程单): a header, a summary line and a table of trips. */
const tripStatement: Template = (p) => {
  const head = list(p, 'columns')
    .map((h) => `<th>${esc(h)}</th>`)
    .join('');
  const trips = list(p, 'trips')
    .map(
      (t) =>
        `<tr>${t
          .split('|')
          .map((cell) => `<td>${esc(cell)}</td>`)
          .join('')}</tr>`,
    )
    .join('');
  const html = `<!doctype html><html><head><meta charset="utf-8"><style>
    html, body { margin: 0; } body { width: 600px; background: #fff; color: #222; font-family: ${FONT}; font-size: 15px; }
    .doc { padding: 28px 26px 36px; }
    h1 { font-size: 24px; margin: 0 0 16px; color: #ff7d41; } h1 span { color: #222; font-weight: normal; margin-left: 10px; }
    .meta { display: flex; justify-content: space-between; color: #555; margin: 4px 0; }
    table { width: 100%; border-collapse: collapse; margin-top: 18px; font-size: 14px; }
    th { background: #f3f3f3; font-weight: normal; color: #555; padding: 8px 4px; text-align: left; }
    td { padding: 10px 4px; border-bottom: 1px solid #e6e6e6; }
  </style></head><body><div class="doc"><h1>${esc(str(p, 'brand'))}<span>${esc(str(p, 'title'))}</span></h1>
    ${pairs(p, 'meta')
      .map(([k, v]) => `<div class="meta"><span>${esc(k)}</span><span>${esc(v)}</span></div>`)
      .join('')}
    <div style="margin-top:10px;font-size:16px">${esc(str(p, 'summary'))}</div>
    <table><tr>${head}</tr>${trips}</table></div></body></html>`;
  return { html, width: 600, height: num(p, 'height', 520), scale: 2 };
};

/** A 全电 electronic invoice (电子发票（普通发票）) as a viewer shows it. */
const invoice: Template = (p) => {
  const red = '#b0492f';
  const cell = `border:1px solid ${red};padding:6px 8px;vertical-align:top`;
  const items = list(p, 'items')
    .map((line) => {
      const [name = '', unit = '', qty = '', price = '', amount = '', rate = '', tax = ''] = line.split('|');
      return `<tr><td>${esc(name)}</td><td>${esc(unit)}</td><td>${esc(qty)}</td><td>${esc(price)}</td><td>${esc(amount)}</td><td>${esc(rate)}</td><td>${esc(tax)}</td></tr>`;
    })
    .join('');
  const html = `<!doctype html><html><head><meta charset="utf-8"><style>
    html, body { margin: 0; } body { width: 760px; background: #fffdf8; color: #2a2a2a; font-family: ${FONT}; font-size: 15px; }
    .doc { padding: 22px 26px; } .red { color: ${red}; }
    h1 { text-align: center; color: ${red}; font-size: 26px; margin: 0 0 4px; letter-spacing: 2px; }
    .top { display: flex; justify-content: space-between; align-items: flex-end; }
    .party { display: flex; } .party > div { flex: 1; ${cell}; line-height: 1.8; }
    table.items { width: 100%; border-collapse: collapse; } table.items td { padding: 5px 6px; }
    table.items tr:first-child td { color: ${red}; }
    .box { ${cell}; }
  </style></head><body><div class="doc">
    <div class="top"><div style="width:200px"></div><h1>电子发票（普通发票）</h1><div style="width:220px;line-height:1.8">
      <div><span class="red">发票号码：</span>${esc(str(p, 'number'))}</div><div><span class="red">开票日期：</span>${esc(str(p, 'date'))}</div></div></div>
    <div class="party" style="margin-top:10px">
      <div><span class="red">购买方信息</span><br><span class="red">名称：</span>${esc(str(p, 'buyer'))}<br><span class="red">统一社会信用代码/纳税人识别号：</span></div>
      <div><span class="red">销售方信息</span><br><span class="red">名称：</span>${esc(str(p, 'seller'))}<br><span class="red">统一社会信用代码/纳税人识别号：</span>${esc(str(p, 'sellerId'))}</div>
    </div>
    <div class="box" style="border-top:none;padding:0"><table class="items">
      <tr><td>项目名称</td><td>单位</td><td>数量</td><td>单价</td><td>金额</td><td>税率/征收率</td><td>税额</td></tr>${items}
      <tr><td class="red">合&#12288;计</td><td></td><td></td><td></td><td>¥${esc(str(p, 'net'))}</td><td></td><td>¥${esc(str(p, 'tax'))}</td></tr></table></div>
    <div class="box" style="border-top:none;display:flex;justify-content:space-between">
      <span><span class="red">价税合计（大写）</span>&#12288;${esc(str(p, 'words'))}</span><span><span class="red">（小写）</span>¥${esc(str(p, 'total'))}</span></div>
    <div class="box" style="border-top:none;height:54px"><span class="red">备注</span></div>
    <div style="margin-top:10px"><span class="red">开票人：</span>${esc(str(p, 'clerk'))}</div>
  </div></body></html>`;
  return { html, width: 760, height: num(p, 'height', 470), scale: num(p, 'scale', 1.5) };
};

export const TEMPLATES: Readonly<Record<string, Template>> = {
  'wechat-success': wechatSuccess,
  'wechat-bill': wechatBill,
  'alipay-bill': alipayBill,
  meituan,
  eleme,
  taobao,
  jd,
  unionpay,
  'bank-sms': bankSms,
  chat,
  receipt,
  'taxi-receipt': taxiReceipt,
  'trip-statement': tripStatement,
  invoice,
};

/** The page behind a picture of each theme. */
export const PAGE_BACKGROUND: Readonly<Record<Theme, string>> = { light: '#ffffff', dark: '#111111' };
