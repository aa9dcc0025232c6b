import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeLedgerApi } from '../../../../../test/support/renderer/fake-ledger-api';
import MerchantRulesSection from './MerchantRulesSection.svelte';

const tick = () => new Promise((r) => setTimeout(r, 0));

afterEach(() => cleanup());

async function open(fake = new FakeLedgerApi()) {
  render(MerchantRulesSection, { props: { api: fake.api } });
  await tick();
  await tick();
  return fake;
}

describe('merchant rules section', () => {
  it('says how rules come about while there are none', async () => {
    await open();
    const section = screen.getByRole('region', { name: '商户分类规则' });
    expect(section.textContent).toContain('还没有规则。导入账单后修改某笔的分类，以后导入同一商户时会沿用。');
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('lists each rule as merchant → category (type), and deletes one directly', async () => {
    const fake = new FakeLedgerApi();
    fake.merchantRules = [
      { merchant: '滴滴出行', type: 'EXPENSE', category: '交通', updatedAt: '2026-03-01T10:00:00+08:00' },
      { merchant: '某某公司', type: 'INCOME', category: '工资', updatedAt: '2026-03-02T10:00:00+08:00' },
    ];
    await open(fake);
    const items = screen.getAllByRole('listitem').map((li) => li.querySelector('.rule')!.textContent);
    expect(items).toEqual(['滴滴出行 → 交通（支出）', '某某公司 → 工资（收入）']);

    await fireEvent.click(screen.getByRole('button', { name: '删除「滴滴出行」的支出规则' }));
    await tick();
    await tick();
    expect(fake.inputsOf('deleteMerchantRule')).toEqual([{ merchant: '滴滴出行', type: 'EXPENSE' }]);
    expect(screen.getAllByRole('listitem').map((li) => li.querySelector('.rule')!.textContent)).toEqual(['某某公司 → 工资（收入）']);

    await fireEvent.click(screen.getByRole('button', { name: '删除「某某公司」的收入规则' }));
    await tick();
    await tick();
    expect(screen.getByRole('region', { name: '商户分类规则' }).textContent).toContain('还没有规则。');
  });

  it('shows main’s refusal and keeps the list', async () => {
    const fake = new FakeLedgerApi();
    fake.merchantRules = [{ merchant: '美团', type: 'EXPENSE', category: '餐饮', updatedAt: '2026-03-01T10:00:00+08:00' }];
    await open(fake);
    fake.failNext('deleteMerchantRule', { code: 'not_found', message: '「美团」的分类规则不存在或已被删除' });
    await fireEvent.click(screen.getByRole('button', { name: '删除「美团」的支出规则' }));
    await tick();
    await tick();
    expect(screen.getByRole('alert').textContent).toBe('「美团」的分类规则不存在或已被删除');
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
  });
});
