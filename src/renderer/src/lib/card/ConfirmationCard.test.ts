import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { VoiceAction } from '@shared/ipc/index';
import ConfirmationCard from './ConfirmationCard.svelte';
import { batchOf, FOUR } from '../../../../../test/support/renderer/card-fixtures';
import { SWIPE_MAX_PX, SWIPE_MIN_PX, swipeOutcome, swipeThreshold, SwipeTracker } from './swipe';
import { changedFields } from './draft-edit';
import { FakeLedgerApi } from '../../../../../test/support/renderer/fake-ledger-api';

afterEach(() => cleanup());

function renderCard(batch = batchOf(FOUR)) {
  const actions: VoiceAction[] = [];
  const onAction = vi.fn((a: VoiceAction) => void actions.push(a));
  const view = render(ConfirmationCard, { props: { batch, onAction } });
  return { ...view, actions };
}

const rows = () => screen.getAllByRole('listitem');

describe('confirmation card: states', () => {
  it('renders one item as a compact card with confirm and cancel', async () => {
    const { actions } = renderCard(batchOf([{ amount: 35, description: '午饭' }]));
    const card = screen.getByRole('region', { name: '确认卡片' });
    expect(card.dataset['count']).toBe('1');
    expect(card.textContent).toContain('¥35.00');
    expect(card.textContent).toContain('午饭');
    expect(screen.queryByRole('list')).toBeNull();
    await fireEvent.click(within(card).getByRole('button', { name: '确认' }));
    await fireEvent.click(within(card).getByRole('button', { name: '取消' }));
    expect(actions).toEqual([{ action: 'confirmAll' }, { action: 'cancelAll' }]);
  });

  it('shows the rule and the tags a sentence gave, one item or several', () => {
    const rent = { amount: 3000, category: '住房', description: '交房租', date: '2026-02-05', recurrence: { every: 'month' as const, day: 5 } };
    const taxi = { amount: 35, category: '交通', description: '打车', tags: ['出差'] };
    renderCard(batchOf([rent]));
    const card = screen.getByRole('region', { name: '确认卡片' });
    // A rule's entry falls on its days: the card shows the rule, not the day the sentence named.
    expect(within(card).getByText('周期').nextElementSibling?.textContent).toBe('每月5日');
    expect(within(card).queryByText('日期')).toBeNull();
    cleanup();
    renderCard(batchOf([taxi]));
    expect(within(screen.getByRole('region', { name: '确认卡片' })).getByText('标签').nextElementSibling?.textContent).toBe('#出差');
    cleanup();
    renderCard(batchOf([rent, taxi]));
    const [first, second] = rows();
    expect(within(first!).getByText('每月5日')).toBeTruthy();
    expect(within(second!).getByText('#出差')).toBeTruthy();
    expect(within(second!).queryByText('每月5日')).toBeNull();
  });

  it('says what a link is and that a wallet will go negative, in the screen’s money, without blocking the confirm', async () => {
    const refund = {
      amount: 300,
      flow: 'refund' as const,
      category: '购物',
      linkNote: '退的是2月1日淘宝买鞋500元',
      cardNote: '退的是 2月1日 淘宝买鞋 ¥500.00',
    };
    renderCard(batchOf([{ ...refund }]));
    const card = screen.getByRole('region', { name: '确认卡片' });
    expect(within(card).getByText('关联').nextElementSibling?.textContent).toBe('退的是 2月1日 淘宝买鞋 ¥500.00');
    expect(within(card).queryByRole('note')).toBeNull();
    cleanup();
    const lunch = { amount: 60, description: '吃饭', overdraft: { account: '现金', balanceFen: -4000 } };
    const { actions } = renderCard(batchOf([lunch]));
    const single = screen.getByRole('region', { name: '确认卡片' });
    expect(within(single).getByRole('note').textContent).toBe('现金余额将变为 −¥40.00');
    // A note, never a block: the draft is confirmed as any other.
    await fireEvent.click(within(single).getByRole('button', { name: '确认' }));
    expect(actions).toEqual([{ action: 'confirmAll' }]);
    cleanup();
    renderCard(batchOf([{ amount: 20, description: '早饭' }, lunch]));
    const [first, second] = rows();
    expect(within(first!).queryByRole('note')).toBeNull();
    expect(within(second!).getByRole('note').textContent).toBe('现金余额将变为 −¥40.00');
  });

  it('numbers 2–10 items from 1 and shows each status', () => {
    renderCard(batchOf(FOUR, ['pending', 'cancelled', 'confirmed', 'pending']));
    const items = rows();
    expect(items.map((li) => li.getAttribute('aria-label'))).toEqual(['第1笔', '第2笔', '第3笔', '第4笔']);
    expect(items.map((li) => li.dataset['status'])).toEqual(['pending', 'cancelled', 'confirmed', 'pending']);
    expect(items.map((li) => li.querySelector('.status')?.textContent)).toEqual(['待确认', '已取消', '已确认', '待确认']);
    expect(screen.getByText(/识别到 4 笔交易/)).toBeTruthy();
    expect(screen.getByText(/待确认 2 · 已确认 1 · 已取消 1/)).toBeTruthy();
    // Only pending rows offer buttons.
    expect(within(items[1]!).queryByRole('button')).toBeNull();
    expect(
      within(items[0]!)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['修改', '取消', '确认']);
  });

  it('sends per-item and whole-batch actions with the ORIGINAL index', async () => {
    const { actions } = renderCard();
    await fireEvent.click(screen.getByRole('button', { name: '取消第2笔' }));
    await fireEvent.click(screen.getByRole('button', { name: '确认第4笔' }));
    await fireEvent.click(screen.getByRole('button', { name: '全部确认' }));
    expect(actions).toEqual([{ action: 'cancelItem', index: 1 }, { action: 'confirmItem', index: 3 }, { action: 'confirmAll' }]);
  });

  it('shows whatever batch it is given next: it keeps no copy', async () => {
    const { rerender } = renderCard();
    expect(rows()[2]!.textContent).toContain('收入');
    const corrected = batchOf(FOUR.map((r, i) => (i === 2 ? { ...r, type: 'EXPENSE' as const } : r)));
    await rerender({ batch: corrected, onAction: () => {} });
    expect(rows()[2]!.textContent).toContain('支出');
    expect(rows()[2]!.dataset['status']).toBe('pending');
  });

  it('edits one item and sends only the changed fields as editItem', async () => {
    const { actions } = renderCard();
    await fireEvent.click(screen.getByRole('button', { name: '修改第3笔' }));
    const form = screen.getByRole('form', { name: '修改第3笔' });
    const amount = within(form).getByLabelText('金额（元）') as HTMLInputElement;
    expect(amount.value).toBe('30');
    await fireEvent.input(amount, { target: { value: '35.5' } });
    await fireEvent.change(within(form).getByLabelText('类型'), { target: { value: 'EXPENSE' } });
    await fireEvent.submit(form);
    expect(actions).toEqual([{ action: 'editItem', index: 2, fields: { amount: 35.5, type: 'EXPENSE', category: '餐饮' } }]);
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('refuses an invalid amount in the editor with a Chinese message and sends nothing', async () => {
    const { actions } = renderCard();
    await fireEvent.click(screen.getByRole('button', { name: '修改第1笔' }));
    const form = screen.getByRole('form', { name: '修改第1笔' });
    await fireEvent.input(within(form).getByLabelText('金额（元）'), { target: { value: '-3' } });
    await fireEvent.submit(form);
    expect(screen.getByRole('alert').textContent).toContain('金额应为大于 0 的数字');
    expect(actions).toEqual([]);
  });

  it('closes a stale editor when the orchestrator sends a new version of that item', async () => {
    const { rerender } = renderCard();
    await fireEvent.click(screen.getByRole('button', { name: '修改第1笔' }));
    expect(screen.getByRole('form')).toBeTruthy();
    await rerender({ batch: batchOf(FOUR.map((r, i) => (i === 0 ? { ...r, amount: 50 } : r))), onAction: () => {} });
    expect(screen.queryByRole('form')).toBeNull();
    expect(rows()[0]!.textContent).toContain('¥50');
  });
});

describe('confirmation card: a draft without an amount', () => {
  const withMissing = () =>
    batchOf([
      { amount: null, category: '交通', description: '打车' },
      { amount: 35, description: '午饭' },
    ]);

  it('marks it 缺金额 and disables only its own confirm; 全部确认 stays', async () => {
    const { actions } = renderCard(withMissing());
    const [first, second] = rows();
    const badge = within(first!).getByText('缺金额');
    expect(badge.classList.contains('amount')).toBe(true);
    expect(first!.textContent).not.toContain('¥');
    expect(first!.dataset['missingAmount']).toBe('true');
    expect(second!.dataset['missingAmount']).toBeUndefined();
    const confirmFirst = screen.getByRole('button', { name: '确认第1笔' }) as HTMLButtonElement;
    expect(confirmFirst.disabled).toBe(true);
    expect(confirmFirst.title).toBe('请先说出或填写金额');
    expect((screen.getByRole('button', { name: '确认第2笔' }) as HTMLButtonElement).disabled).toBe(false);
    expect((screen.getByRole('button', { name: '修改第1笔' }) as HTMLButtonElement).disabled).toBe(false);
    expect((screen.getByRole('button', { name: '取消第1笔' }) as HTMLButtonElement).disabled).toBe(false);
    expect(
      screen
        .getByText(/待确认 2 · 已确认 0 · 已取消 0/)
        .textContent?.replace(/\s+/g, ' ')
        .trim(),
    ).toBe('待确认 2 · 已确认 0 · 已取消 0 · 缺金额 1');
    await fireEvent.click(screen.getByRole('button', { name: '全部确认' }));
    expect(actions).toEqual([{ action: 'confirmAll' }]);
  });

  it('does not confirm it by swiping right; left still cancels', async () => {
    const { actions } = renderCard(withMissing());
    const slide = rows()[0]!.querySelector('.slide') as HTMLElement;
    expect(slide.getAttribute('aria-roledescription')).toBe('可滑动：左滑取消');
    for (const dx of [SWIPE_MIN_PX + 20, -(SWIPE_MIN_PX + 20)]) {
      await fireEvent.pointerDown(slide, { pointerId: 1, button: 0, clientX: 200, clientY: 100 });
      await fireEvent.pointerMove(slide, { pointerId: 1, clientX: 200 + dx, clientY: 100 });
      await fireEvent.pointerUp(slide, { pointerId: 1, clientX: 200 + dx, clientY: 100 });
    }
    expect(actions).toEqual([{ action: 'cancelItem', index: 0 }]);
  });

  it('its editor takes a typed amount and sends it as editItem', async () => {
    const { actions } = renderCard(withMissing());
    await fireEvent.click(screen.getByRole('button', { name: '修改第1笔' }));
    const form = screen.getByRole('form', { name: '修改第1笔' });
    const amount = within(form).getByLabelText('金额（元）') as HTMLInputElement;
    expect(amount.value).toBe('');
    expect(amount.placeholder).toBe('缺金额');
    await fireEvent.input(amount, { target: { value: '28' } });
    await fireEvent.submit(form);
    expect(actions).toEqual([{ action: 'editItem', index: 0, fields: { amount: 28 } }]);
  });

  it('shows the amount once the orchestrator fills it', async () => {
    const { rerender } = renderCard(withMissing());
    await rerender({
      batch: batchOf([
        { amount: 28, category: '交通', description: '打车' },
        { amount: 35, description: '午饭' },
      ]),
      onAction: () => {},
    });
    expect(rows()[0]!.textContent).toContain('¥28');
    expect(within(rows()[0]!).queryByText('缺金额')).toBeNull();
    expect((screen.getByRole('button', { name: '确认第1笔' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('a single card without an amount says 缺金额 and cannot be confirmed', async () => {
    const { actions } = renderCard(batchOf([{ amount: null, category: '交通', description: '打车' }]));
    const card = screen.getByRole('region', { name: '确认卡片' });
    expect(within(card).getByText('缺金额')).toBeTruthy();
    const confirm = within(card).getByRole('button', { name: '确认' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    expect(confirm.title).toBe('请先说出或填写金额');
    await fireEvent.click(within(card).getByRole('button', { name: '修改' }));
    expect(within(card).getByRole('form', { name: '修改第1笔' })).toBeTruthy();
    expect(actions).toEqual([]);
  });
});

describe('confirmation card: swipe', () => {
  async function swipe(row: HTMLElement, dx: number, dy = 0) {
    const target = row.querySelector('.slide') as HTMLElement;
    await fireEvent.pointerDown(target, { pointerId: 1, button: 0, clientX: 200, clientY: 100 });
    await fireEvent.pointerMove(target, { pointerId: 1, clientX: 200 + dx, clientY: 100 + dy });
    await fireEvent.pointerUp(target, { pointerId: 1, clientX: 200 + dx, clientY: 100 + dy });
  }

  // jsdom lays nothing out (width 0), so the threshold is the minimum.
  it('right past the threshold confirms, left cancels', async () => {
    const { actions } = renderCard();
    await swipe(rows()[0]!, SWIPE_MIN_PX + 1);
    await swipe(rows()[1]!, -(SWIPE_MIN_PX + 1));
    expect(actions).toEqual([
      { action: 'confirmItem', index: 0 },
      { action: 'cancelItem', index: 1 },
    ]);
  });

  it('a short or mostly vertical drag does nothing, nor does swiping a decided row', async () => {
    const { actions } = renderCard(batchOf(FOUR, ['pending', 'pending', 'confirmed', 'pending']));
    await swipe(rows()[0]!, SWIPE_MIN_PX - 5);
    await swipe(rows()[1]!, SWIPE_MIN_PX + 10, SWIPE_MIN_PX + 40);
    await swipe(rows()[2]!, -200);
    expect(actions).toEqual([]);
  });

  it('threshold scales with the row width between its bounds', () => {
    expect(swipeThreshold(0)).toBe(SWIPE_MIN_PX);
    expect(swipeThreshold(100)).toBe(SWIPE_MIN_PX);
    expect(swipeThreshold(400)).toBe(120);
    expect(swipeThreshold(2000)).toBe(SWIPE_MAX_PX);
    expect(swipeOutcome(119, 0, 400)).toBeNull();
    expect(swipeOutcome(120, 0, 400)).toBe('confirm');
    expect(swipeOutcome(-120, 10, 400)).toBe('cancel');
    expect(swipeOutcome(130, 131, 400)).toBeNull();
  });

  it('the tracker ignores a second pointer', () => {
    const tracker = new SwipeTracker();
    tracker.begin(1, 0, 0);
    expect(tracker.move(2, 500, 0)).toBeNull();
    expect(tracker.end(2, 500, 0, 400)).toBeNull();
    expect(tracker.end(1, -150, 0, 400)).toBe('cancel');
    expect(tracker.dragging).toBe(false);
  });
});

describe('editor field diff', () => {
  const result = batchOf([{ amount: 30, date: null, description: '抢红包' }]).items[0]!.result;
  it('treats today for a null date as unchanged and a real change as a change', () => {
    expect(
      changedFields(result, { amount: '30', type: 'EXPENSE', category: '餐饮', date: '2026-02-17', description: '抢红包' }, '2026-02-17'),
    ).toEqual({
      ok: true,
      fields: {},
    });
    expect(
      changedFields(result, { amount: '30', type: 'EXPENSE', category: '餐饮', date: '2026-02-16', description: '抢红包 ' }, '2026-02-17'),
    ).toEqual({
      ok: true,
      fields: { date: '2026-02-16' },
    });
    expect(changedFields(result, { amount: '1.234', type: 'EXPENSE', category: '餐饮', date: '2026-02-17', description: '' }, '2026-02-17')).toEqual({
      ok: false,
      message: '金额最多保留两位小数。',
    });
  });
});

describe('category picker', () => {
  it('offers the given categories of the chosen type and sends the pick', async () => {
    const actions: VoiceAction[] = [];
    render(ConfirmationCard, {
      props: {
        batch: batchOf([{ amount: 15, category: '餐饮', description: '奶茶' }]),
        categories: [
          { name: '餐饮', type: 'EXPENSE' },
          { name: '奶茶', type: 'EXPENSE' },
          { name: '工资', type: 'INCOME' },
        ],
        onAction: (a: VoiceAction) => void actions.push(a),
      },
    });
    await fireEvent.click(screen.getByRole('button', { name: '修改' }));
    const picker = screen.getByLabelText('分类') as HTMLSelectElement;
    expect([...picker.options].map((o) => o.value)).toEqual(['餐饮', '奶茶']);
    await fireEvent.change(picker, { target: { value: '奶茶' } });
    await fireEvent.submit(screen.getByRole('form'));
    expect(actions).toEqual([{ action: 'editItem', index: 0, fields: { category: '奶茶' } }]);
  });
});

describe('category choices', () => {
  it('loads the visible user categories in order and keeps presets when the ledger fails', async () => {
    const { CategoryChoices } = await import('./categories.svelte');
    const listeners: ((e: unknown) => void)[] = [];
    let answer: unknown = {
      ok: true,
      value: [
        { id: 2, name: '奶茶', type: 'EXPENSE', hidden: false, preset: false, sortOrder: 2, count: 0 },
        { id: 1, name: '餐饮', type: 'EXPENSE', hidden: false, preset: true, sortOrder: 1, count: 0 },
        { id: 3, name: '宠物', type: 'EXPENSE', hidden: true, preset: true, sortOrder: 3, count: 0 },
      ],
    };
    const api = {
      listCategories: async () => answer,
      onEvent: (l: (e: unknown) => void) => {
        listeners.push(l);
        return () => {};
      },
    };
    const choices = new CategoryChoices(api as never);
    expect(choices.items.some((c) => c.name === '交通')).toBe(true);
    choices.connect();
    await new Promise((r) => setTimeout(r, 0));
    expect(choices.items).toEqual([
      { name: '餐饮', type: 'EXPENSE' },
      { name: '奶茶', type: 'EXPENSE' },
    ]);
    answer = { ok: false, error: { code: 'x', message: 'y' } };
    listeners[0]!({ channel: 'ledger', event: { type: 'changed', reason: 'edit' } });
    await new Promise((r) => setTimeout(r, 0));
    expect(choices.items.map((c) => c.name)).toEqual(['餐饮', '奶茶']);
  });
});

describe('confirmation card: money flows', () => {
  it('says what a flow is and which expense a refund returns; its editor picks another expense', async () => {
    const fake = new FakeLedgerApi().install();
    const asked: unknown[] = [];
    fake.handle('refundCandidates', (input) => {
      asked.push(input);
      return [
        { id: 'shoes', amountFen: 500_00, refundedFen: 0, description: '淘宝买鞋', date: '2026-02-01', category: '购物', account: '钱包', score: 30 },
        { id: 'coat', amountFen: 400_00, refundedFen: 0, description: '买衣服', date: '2026-02-03', category: '购物', account: '钱包', score: 5 },
      ];
    });
    try {
      const { actions } = renderCard(
        batchOf([
          {
            amount: 300,
            type: 'INCOME',
            category: '购物',
            description: '淘宝买鞋那笔退',
            flow: 'refund',
            refundOf: 'shoes',
            linkNote: '退的是2月1日淘宝买鞋500元',
          },
          { amount: 1000, type: 'TRANSFER', category: '转账', description: '借给小李', flow: 'lend', counterparty: '小李' },
          { amount: 80, category: '交通', description: '出差打车', reimbursable: true },
        ]),
      );
      const [refund, loan, taxi] = rows();
      expect(refund!.querySelector('.type')?.textContent).toBe('退款');
      expect(refund!.textContent).toContain('退的是2月1日淘宝买鞋500元');
      expect(loan!.querySelector('.type')?.textContent).toBe('借给小李');
      expect(taxi!.querySelector('.type')?.textContent).toBe('支出 · 待报销');

      await fireEvent.click(within(refund!).getByRole('button', { name: '修改第1笔' }));
      const picker = (await within(refund!).findByRole('combobox', { name: '退的是哪一笔' })) as HTMLSelectElement;
      await vi.waitFor(() => expect(picker.options).toHaveLength(2));
      expect(asked).toEqual([{ text: '淘宝买鞋那笔退', limit: 8, amountFen: 300_00 }]);
      await fireEvent.change(picker, { target: { value: 'coat' } });
      await fireEvent.click(within(refund!).getByRole('button', { name: '保存修改' }));
      expect(actions).toEqual([{ action: 'editItem', index: 0, fields: { refundOf: 'coat' } }]);
    } finally {
      fake.uninstall();
    }
  });
});

describe('confirmation card: drafts read off a picture', () => {
  const seen = '可能已记过：11月27日 12:03 瑞幸咖啡 ¥23.90';
  const fromPicture = (results: Parameters<typeof batchOf>[0], notes?: string[]) => ({
    ...batchOf(results),
    picture: { name: '微信支付.png' },
    ...(notes ? { notes } : {}),
  });

  it('says which picture the card came from and the reading’s notes, for one draft or several', () => {
    const notes = ['小票各行合计 ¥52.00，实付 ¥50.00：差 ¥2.00', '超过 10 行，已合并为 10 笔'];
    renderCard(fromPicture([{ amount: 23.9, description: '瑞幸咖啡' }], notes));
    const single = screen.getByRole('region', { name: '确认卡片' });
    expect(within(single).getByText('微信支付.png').closest('.source')?.textContent).toBe('来自图片 微信支付.png');
    expect(
      within(within(single).getByRole('list', { name: '识别说明' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(notes);
    cleanup();
    renderCard(fromPicture([{ amount: 30 }, { amount: 20 }], notes));
    const list = screen.getByRole('region', { name: '确认卡片' });
    expect(list.textContent).toContain('来自图片 微信支付.png');
    expect(within(list).getByRole('list', { name: '识别说明' }).textContent).toContain('差 ¥2.00');
    cleanup();
    // A spoken card says neither.
    renderCard(batchOf([{ amount: 30 }, { amount: 20 }]));
    expect(screen.getByRole('region', { name: '确认卡片' }).textContent).not.toContain('来自图片');
    expect(screen.queryByRole('list', { name: '识别说明' })).toBeNull();
  });

  it('marks a draft that may be in the book already, with the row it found, and still confirms it as any other', async () => {
    const { actions } = renderCard(fromPicture([{ amount: 23.9, description: '瑞幸咖啡', maybeRecorded: seen }]));
    const single = screen.getByRole('region', { name: '确认卡片' });
    expect(within(single).getByText('可能已记过').getAttribute('title')).toBe(seen);
    expect(within(single).getByRole('note').textContent).toBe(seen);
    await fireEvent.click(within(single).getByRole('button', { name: '确认' }));
    expect(actions).toEqual([{ action: 'confirmAll' }]);
    cleanup();
    renderCard(
      fromPicture([
        { amount: 12, description: '面包' },
        { amount: 23.9, description: '瑞幸咖啡', maybeRecorded: seen },
      ]),
    );
    const [bread, coffee] = rows();
    expect(bread!.dataset['maybeRecorded']).toBeUndefined();
    expect(within(bread!).queryByText('可能已记过')).toBeNull();
    expect(coffee!.dataset['maybeRecorded']).toBe('true');
    expect(within(coffee!).getByText('可能已记过')).toBeTruthy();
    expect(within(coffee!).getByRole('note').textContent).toBe(seen);
  });

  it('corrects a picture’s draft like a spoken one', async () => {
    const { actions } = renderCard(
      fromPicture([
        { amount: 12, description: '面包' },
        { amount: 23.9, description: '瑞幸咖啡' },
      ]),
    );
    await fireEvent.click(screen.getByRole('button', { name: '修改第2笔' }));
    const form = screen.getByRole('form', { name: '修改第2笔' });
    await fireEvent.input(within(form).getByLabelText('金额（元）'), { target: { value: '15' } });
    await fireEvent.submit(form);
    expect(actions).toEqual([{ action: 'editItem', index: 1, fields: { amount: 15 } }]);
  });

  it('offers to keep a transfer to a person as money lent, and a loan as a transfer, for one draft or several', async () => {
    const transfer = { amount: 500, type: 'TRANSFER' as const, category: '转账', description: '转账给李明', counterparty: '李明' };
    let { actions } = renderCard(fromPicture([transfer]));
    const single = screen.getByRole('region', { name: '确认卡片' });
    await fireEvent.click(within(single).getByRole('button', { name: '把转给李明的这笔记为借出' }));
    expect(actions).toEqual([{ action: 'editItem', index: 0, fields: { lend: true } }]);
    cleanup();
    ({ actions } = renderCard(fromPicture([{ ...transfer, flow: 'lend' as const }])));
    const lent = screen.getByRole('region', { name: '确认卡片' });
    expect(within(lent).queryByRole('button', { name: /记为借出/ })).toBeNull();
    await fireEvent.click(within(lent).getByRole('button', { name: '把借给李明的这笔记为转账' }));
    expect(actions).toEqual([{ action: 'editItem', index: 0, fields: { lend: false } }]);
    cleanup();
    const drafts = [
      { amount: 12, description: '面包' },
      { ...transfer, counterparty: '王芳' },
      { ...transfer, flow: 'borrow' as const },
      { amount: 500, type: 'TRANSFER' as const, category: '转账', description: '转到银行卡' },
      { ...transfer, flow: 'lend' as const },
      transfer,
    ];
    ({ actions } = renderCard(batchOf(drafts, ['pending', 'pending', 'pending', 'pending', 'pending', 'cancelled'])));
    const offered = screen.getAllByRole('button', { name: /^把.*记为(借出|转账)$/ }).map((button) => button.getAttribute('aria-label'));
    // Not bread, money borrowed, a transfer to no one, nor a draft already decided.
    expect(offered).toEqual(['把转给王芳的第2笔记为借出', '把借给李明的第5笔记为转账']);
    await fireEvent.click(screen.getByRole('button', { name: '把借给李明的第5笔记为转账' }));
    await fireEvent.click(screen.getByRole('button', { name: '把转给王芳的第2笔记为借出' }));
    expect(actions).toEqual([
      { action: 'editItem', index: 4, fields: { lend: false } },
      { action: 'editItem', index: 1, fields: { lend: true } },
    ]);
  });
});
