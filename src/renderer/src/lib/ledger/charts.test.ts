import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TrendPoint } from '@shared/ipc/ledger';

// jsdom has no canvas: chart.js is stood in for by a recorder that keeps the config it is given
// and runs its plugins' install/uninstall as Chart does, so what the 统计 page hands chart.js
// (its axis and tooltip words, its colours in each scheme) is read here.

const h = vi.hoisted(() => {
  class FakeChart {
    static made: FakeChart[] = [];
    static register() {}
    data: { labels: string[]; datasets: Record<string, unknown>[] };
    options: Record<string, unknown>;
    plugins: { install?: (c: FakeChart) => void; uninstall?: (c: FakeChart) => void }[];
    update = vi.fn();
    constructor(_canvas: unknown, config: { data: FakeChart['data']; options: Record<string, unknown>; plugins: FakeChart['plugins'] }) {
      this.data = config.data;
      this.options = config.options;
      this.plugins = config.plugins;
      for (const p of this.plugins) p.install?.(this);
      FakeChart.made.push(this);
    }
    destroy() {
      for (const p of this.plugins) p.uninstall?.(this);
    }
  }
  return { FakeChart };
});

vi.mock('chart.js', () => ({
  Chart: h.FakeChart,
  ArcElement: {},
  BarController: {},
  BarElement: {},
  CategoryScale: {},
  DoughnutController: {},
  Legend: {},
  LinearScale: {},
  Tooltip: {},
}));

const { drawDonut, drawTrend, PALETTES, sliceColor, trendLabel } = await import('./charts');

/** The page's theme as app.css sets it, switched by hand as the media query would. */
const THEMES = {
  light: { '--fg': '#1f2328', '--muted': '#6b7280', '--border': '#e5e7eb', '--card': '#ffffff', '--expense': '#b91c1c', '--income': '#15803d' },
  dark: { '--fg': '#e8e8e8', '--muted': '#9ca3af', '--border': '#33363c', '--card': '#222428', '--expense': '#f87171', '--income': '#4ade80' },
};
let dark = false;
const listeners = new Set<(e: { matches: boolean }) => void>();

function scheme(next: 'light' | 'dark') {
  dark = next === 'dark';
  for (const [name, value] of Object.entries(THEMES[next])) document.documentElement.style.setProperty(name, value);
  for (const l of listeners) l({ matches: dark });
}

beforeEach(() => {
  h.FakeChart.made = [];
  scheme('light');
  vi.stubGlobal('matchMedia', (query: string) => ({
    get matches() {
      return query === '(prefers-color-scheme: dark)' && dark;
    },
    addEventListener: (_: string, l: (e: { matches: boolean }) => void) => listeners.add(l),
    removeEventListener: (_: string, l: (e: { matches: boolean }) => void) => listeners.delete(l),
  }));
});

afterEach(() => {
  vi.unstubAllGlobals();
  listeners.clear();
});

const canvas = () => document.createElement('canvas');
const points: TrendPoint[] = [
  { key: '2026-11-27', expenseFen: 140_000_000, incomeFen: 0 },
  { key: '2026-11-28', expenseFen: 3550, incomeFen: 900_000 },
];

type Options = {
  scales: Record<'x' | 'y', { ticks: { color: string; callback?: (v: number) => string }; grid: { color?: string } }>;
  plugins: {
    legend: { labels: { color: string } };
    tooltip: { backgroundColor: string; bodyColor: string; callbacks: { label: (item: unknown) => string } };
  };
};

describe('the trend chart', () => {
  it('writes its axis and tooltips as every screen writes money, its days by distance', () => {
    const chart = drawTrend(canvas(), points, false, '2026-11-28') as unknown as InstanceType<typeof h.FakeChart>;
    const options = chart.options as unknown as Options;
    expect(chart.data.labels).toEqual(['昨天', '今天']);
    expect(chart.data.datasets.map((d) => d['data'])).toEqual([
      [140_000_000, 3550],
      [0, 900_000],
    ]);
    expect(options.scales.y.ticks.callback!(140_000_000)).toBe('¥1,400,000.00');
    expect(options.scales.y.ticks.callback!(0)).toBe('¥0.00');
    expect(options.plugins.tooltip.callbacks.label({ dataset: { label: '支出' }, parsed: { y: 3550 } })).toBe('支出 ¥35.50');
    expect(trendLabel('2026-03', true, '2026-11-28')).toBe('2026年3月');
    expect(trendLabel('2025-11-02', false, '2026-11-28')).toBe('2025年11月2日');
  });

  it('takes the page’s colours, and takes them again when the scheme changes', () => {
    const chart = drawTrend(canvas(), points, false, '2026-11-28') as unknown as InstanceType<typeof h.FakeChart>;
    const options = chart.options as unknown as Options;
    expect([options.scales.y.grid.color, options.scales.x.ticks.color, options.plugins.legend.labels.color]).toEqual([
      '#e5e7eb',
      '#6b7280',
      '#1f2328',
    ]);
    expect(chart.data.datasets.map((d) => d['backgroundColor'])).toEqual(['#b91c1c', '#15803d']);

    scheme('dark');
    // Gridlines in the dark theme's border, not the light one's glare; text and bars in its colours.
    expect([options.scales.y.grid.color, options.scales.x.ticks.color, options.plugins.legend.labels.color]).toEqual([
      '#33363c',
      '#9ca3af',
      '#e8e8e8',
    ]);
    expect(chart.data.datasets.map((d) => d['backgroundColor'])).toEqual(['#f87171', '#4ade80']);
    expect([options.plugins.tooltip.backgroundColor, options.plugins.tooltip.bodyColor]).toEqual(['#222428', '#e8e8e8']);
    expect(chart.update).toHaveBeenCalledTimes(1);

    chart.destroy();
    scheme('light');
    expect(chart.update).toHaveBeenCalledTimes(1);
    expect(listeners.size).toBe(0);
  });
});

describe('the donut', () => {
  const slices = ['餐饮', '交通', '购物'].map((label, i) => ({ label, category: label, totalFen: (3 - i) * 100_000, share: (3 - i) / 6 }));

  it('keeps fen and writes its tooltip with formatMoney', () => {
    const chart = drawDonut(canvas(), slices, () => {}) as unknown as InstanceType<typeof h.FakeChart>;
    const options = chart.options as unknown as Options;
    expect(chart.data.datasets[0]!['data']).toEqual([300_000, 200_000, 100_000]);
    expect(options.plugins.tooltip.callbacks.label({ parsed: 300_000 })).toBe(' ¥3,000.00');
  });

  it('recolours its slices for the dark scheme, where the light navy would vanish', () => {
    const chart = drawDonut(canvas(), slices, () => {}) as unknown as InstanceType<typeof h.FakeChart>;
    expect(chart.data.datasets[0]!['backgroundColor']).toEqual(PALETTES.light.slice(0, 3));
    scheme('dark');
    expect(chart.data.datasets[0]!['backgroundColor']).toEqual(PALETTES.dark.slice(0, 3));
    expect(sliceColor(2)).toBe(PALETTES.dark[2]);
  });

  /** WCAG relative luminance and contrast ratio. */
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (a: string, b: string) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
    return (hi + 0.05) / (lo + 0.05);
  };

  it.each(['light', 'dark'] as const)('gives every %s slice 3:1 against its card and page', (name) => {
    const backgrounds = name === 'light' ? ['#ffffff', '#f7f7f5'] : ['#222428', '#17181b'];
    const faint = PALETTES[name].flatMap((colour) => backgrounds.filter((bg) => contrast(colour, bg) < 3).map((bg) => `${colour} on ${bg}`));
    expect(faint).toEqual([]);
  });
});
