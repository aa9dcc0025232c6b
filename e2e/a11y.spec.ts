import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, go, test, ledgerRows } from './fixtures';
import { seedHousehold } from './household';

// The accessibility check (axe-core) over every page of the main window and the dialogs most
// used, in the light and the dark theme, with a household's month in the ledger so that lists,
// pills, badges and charts are drawn. A serious or critical violation fails the test with each
// rule, the elements it found and why (contrast ratios and colours for colour-contrast), so
// the failure message alone says what to fix.

type Impact = 'minor' | 'moderate' | 'serious' | 'critical';
const FAILING: readonly Impact[] = ['serious', 'critical'];

interface Finding {
  scheme: string;
  where: string;
  id: string;
  impact: string;
  help: string;
  nodes: { target: string; summary: string }[];
}

/**
 * The serious and critical violations on the page as it is now, in both colour schemes; `scope`
 * (a CSS selector) narrows the check to a dialog, the page behind it having its own test.
 */
async function audit(page: Page, where: string, scope?: string): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const builder = new AxeBuilder({ page });
    if (scope) builder.include(scope);
    const result = await builder.analyze();
    for (const v of result.violations) {
      if (!FAILING.includes(v.impact as Impact)) continue;
      findings.push({
        scheme,
        where,
        id: v.id,
        impact: v.impact ?? '',
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').trim() })),
      });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return findings;
}

/** One line per element: what the report needs to route the fix. */
function report(findings: Finding[]): string {
  return findings
    .map((f) => [`[${f.where} · ${f.scheme}] ${f.id} (${f.impact}): ${f.help}`, ...f.nodes.map((n) => `    ${n.target} — ${n.summary}`)].join('\n'))
    .join('\n');
}

/** Each page of the main window, with what shows that its data has arrived. */
const PAGES: { route: string; name: string; ready: (page: Page) => Promise<void> }[] = [
  { route: 'home', name: '首页', ready: (p) => expect(p.getByRole('region', { name: '本月概览' })).toContainText('¥') },
  { route: 'session', name: '记账', ready: (p) => expect(p.getByRole('textbox', { name: '文字输入' })).toBeVisible() },
  { route: 'ledger', name: '明细', ready: (p) => expect(ledgerRows(p).first()).toBeVisible() },
  { route: 'stats', name: '统计', ready: (p) => expect(p.getByRole('list', { name: '支出分类' }).getByRole('button').first()).toBeVisible() },
  { route: 'budgets', name: '预算', ready: (p) => expect(p.getByRole('region', { name: '分类预算' })).toContainText('餐饮') },
  { route: 'recurring', name: '周期记账', ready: (p) => expect(p.getByRole('region', { name: '周期记账' })).toContainText('房租') },
  { route: 'debts', name: '借贷与报销', ready: (p) => expect(p.getByRole('region', { name: '借贷', exact: true })).toContainText('小李') },
  { route: 'categories', name: '分类与账户', ready: (p) => expect(p.getByRole('region', { name: '标签', exact: true })).toContainText('出差') },
  { route: 'settings', name: '设置', ready: (p) => expect(p.getByRole('region', { name: '账本', exact: true })).toBeVisible() },
];

test.describe('accessibility (axe-core), light and dark', () => {
  for (const { route, name, ready } of PAGES) {
    test(`${name}: no serious or critical violations`, async ({ app }) => {
      test.setTimeout(90_000);
      seedHousehold(app.ledger);
      const page = await app.open(`#/${route}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await ready(page);
      if (route === 'settings') {
        // The technical choices may sit folded under 高级: the check covers them too.
        await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
        const advanced = page.getByRole('button', { name: '高级', exact: true });
        if ((await advanced.count()) === 1 && (await advanced.getAttribute('aria-expanded')) === 'false') await advanced.click();
      }
      if (route === 'stats') {
        // A parent with a sub-category opens its children: the drill-down's trail and list.
        await page
          .getByRole('list', { name: '支出分类' })
          .getByRole('button', { name: /^餐饮 .*查看子分类$/ })
          .click();
        await expect(page.getByRole('navigation', { name: '分类层级' })).toBeVisible();
      }
      const findings = await audit(page, name);
      expect(findings, report(findings)).toEqual([]);
    });
  }

  test('dialogs: 记一笔, the row editor and the delete confirmation', async ({ app }) => {
    test.setTimeout(180_000);
    seedHousehold(app.ledger);
    const page = await app.open('#/ledger');
    const list = page.getByRole('grid', { name: '明细列表' });
    await expect(list.locator('[role="row"][aria-selected]').first()).toBeVisible();
    const findings: Finding[] = [];

    await page.keyboard.press('Control+n');
    const form = page.getByRole('dialog', { name: '记一笔' });
    await expect(form).toBeVisible();
    findings.push(...(await audit(page, '记一笔', '[role="dialog"]')));
    await page.keyboard.press('Escape');
    await expect(form).toHaveCount(0);

    const lunch = list.locator('[role="row"][aria-selected]').filter({ hasText: '午饭' });
    await lunch.dblclick();
    await expect(page.getByRole('form', { name: '编辑记录' })).toBeVisible();
    findings.push(...(await audit(page, '编辑记录', 'form[aria-label="编辑记录"]')));
    await page.keyboard.press('Escape');
    await expect(page.getByRole('form', { name: '编辑记录' })).toHaveCount(0);

    await lunch.getByRole('button', { name: /^删除 / }).click();
    const confirm = page.getByRole('alertdialog', { name: '删除这笔记录？' });
    await expect(confirm).toBeVisible();
    findings.push(...(await audit(page, '删除确认', '.backdrop')));
    await confirm.getByRole('button', { name: '取消' }).click();

    await go(page, 'categories');
    const tags = page.getByRole('region', { name: '标签', exact: true });
    await tags.getByRole('button', { name: '删除标签 出差', exact: true }).click();
    await expect(page.getByRole('alertdialog')).toBeVisible();
    findings.push(...(await audit(page, '删除标签确认', '.backdrop')));

    expect(findings, report(findings)).toEqual([]);
  });
});
