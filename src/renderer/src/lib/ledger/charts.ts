import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  DoughnutController,
  Legend,
  LinearScale,
  Tooltip,
  type ChartOptions,
  type Plugin,
} from 'chart.js';
import type { TrendPoint } from '@shared/ipc/ledger';
import { formatDate, formatMoney, formatMonth } from '../format';
import type { Slice } from './breakdown';

// chart.js v4, tree-shaken to the two chart types the 统计 page draws. A canvas does not follow
// CSS: the charts read the page's theme (app.css's variables) when drawn and again whenever the
// colour scheme changes, so dark mode never shows light gridlines or a series lost in the dark.

Chart.register(DoughnutController, ArcElement, BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

/**
 * Slice colours per scheme, each at least 3:1 against its theme's card (WCAG's bar for graphics):
 * the light navy becomes a periwinkle in the dark, where #29335c is 1.3:1 and vanishes.
 */
export const PALETTES = {
  light: ['#e4572e', '#b7791f', '#29335c', '#3b82c4', '#5b8c3a', '#8e6c8a', '#7b8494'],
  dark: ['#ff7a50', '#f3a712', '#8fa3e8', '#669bbc', '#a8c686', '#c39bbf', '#9ca3af'],
} as const;

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** True while the page is in its dark scheme (app.css switches on the same media query). */
export function prefersDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia(DARK_QUERY).matches;
}

/** Calls `listener` with the new scheme whenever it changes; returns the unsubscribe. */
export function onSchemeChange(listener: (dark: boolean) => void): () => void {
  if (typeof matchMedia !== 'function') return () => {};
  const query = matchMedia(DARK_QUERY);
  const handle = (event: MediaQueryListEvent) => listener(event.matches);
  query.addEventListener('change', handle);
  return () => query.removeEventListener('change', handle);
}

/** The colour of the donut's `index`th slice (and its legend dot) in the given scheme. */
export function sliceColor(index: number, dark: boolean = prefersDark()): string {
  const palette = dark ? PALETTES.dark : PALETTES.light;
  return palette[index % palette.length]!;
}

interface ChartTheme {
  dark: boolean;
  fg: string;
  muted: string;
  grid: string;
  card: string;
  expense: string;
  income: string;
}

/** The page's colours now, from app.css's custom properties (fallbacks: its light values). */
function readTheme(): ChartTheme {
  const style = getComputedStyle(document.documentElement);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    dark: prefersDark(),
    fg: read('--fg', '#1f2328'),
    muted: read('--muted', '#6b7280'),
    grid: read('--border', '#e5e7eb'),
    card: read('--card', '#ffffff'),
    expense: read('--expense', '#b91c1c'),
    income: read('--income', '#15803d'),
  };
}

/** Tooltips in the page's card colours rather than chart.js's fixed black box. */
function tooltipTheme(theme: ChartTheme) {
  return {
    backgroundColor: theme.card,
    titleColor: theme.fg,
    bodyColor: theme.fg,
    borderColor: theme.grid,
    borderWidth: 1,
  };
}

/**
 * Applies `style` with the theme of the moment, and again on every scheme change until the
 * chart is destroyed (the plugin's uninstall runs in Chart#destroy).
 */
function followTheme<T extends 'bar' | 'doughnut'>(style: (chart: Chart<T>, theme: ChartTheme) => void): Plugin<T> {
  let stop = () => {};
  return {
    id: 'followTheme',
    install(chart) {
      stop = onSchemeChange(() => {
        style(chart, readTheme());
        // Not update('none'): that mode keeps the bars' shared options (their old colour).
        // Animation is off, so a plain update redraws at once.
        chart.update();
      });
    },
    uninstall() {
      stop();
    },
  };
}

/** The donut: amounts are fen, so the tooltip writes them as every screen does. */
export function drawDonut(canvas: HTMLCanvasElement, slices: Slice[], onPick: (slice: Slice) => void): Chart<'doughnut'> {
  const style = (chart: Chart<'doughnut'>, theme: ChartTheme) => {
    const dataset = chart.data.datasets[0]!;
    dataset.backgroundColor = slices.map((_, i) => sliceColor(i, theme.dark));
    dataset.borderColor = theme.card;
    chart.options.plugins!.tooltip = { ...chart.options.plugins!.tooltip, ...tooltipTheme(theme) };
  };
  const theme = readTheme();
  const options: ChartOptions<'doughnut'> = {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    cutout: '62%',
    plugins: {
      legend: { display: false },
      tooltip: { ...tooltipTheme(theme), callbacks: { label: (item) => ` ${formatMoney(item.parsed)}` } },
    },
    onClick: (_event, elements) => {
      const hit = elements[0];
      if (hit) onPick(slices[hit.index]!);
    },
  };
  return new Chart(canvas, {
    type: 'doughnut',
    data: {
      labels: slices.map((s) => s.label),
      datasets: [
        {
          data: slices.map((s) => s.totalFen),
          backgroundColor: slices.map((_, i) => sliceColor(i, theme.dark)),
          borderWidth: 1,
          borderColor: theme.card,
        },
      ],
    },
    options,
    plugins: [followTheme<'doughnut'>(style)],
  });
}

/** An axis label: a day by its distance from today (今天, 11月28日), or a month (2026年11月). */
export function trendLabel(key: string, byMonth: boolean, today: string): string {
  return byMonth ? formatMonth(key) : formatDate(key, today);
}

/**
 * The 收支 bars per day (or per month for a year). Values stay in fen: the axis ticks and the
 * tooltips are written by formatMoney (¥1,400,000.00), whole fen only.
 */
export function drawTrend(canvas: HTMLCanvasElement, points: TrendPoint[], byMonth: boolean, today: string): Chart<'bar'> {
  const style = (chart: Chart<'bar'>, theme: ChartTheme) => {
    const [expense, income] = chart.data.datasets;
    expense!.backgroundColor = theme.expense;
    income!.backgroundColor = theme.income;
    const { x, y } = chart.options.scales!;
    x!.ticks!.color = theme.muted;
    y!.ticks!.color = theme.muted;
    y!.grid!.color = theme.grid;
    y!.border!.color = theme.grid;
    chart.options.plugins!.legend!.labels!.color = theme.fg;
    chart.options.plugins!.tooltip = { ...chart.options.plugins!.tooltip, ...tooltipTheme(theme) };
  };
  const theme = readTheme();
  const options: ChartOptions<'bar'> = {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    scales: {
      x: { ticks: { color: theme.muted }, grid: { display: false } },
      y: {
        beginAtZero: true,
        // Values are fen: an empty period would otherwise scale to 1 fen (a ¥0.01 top tick).
        suggestedMax: 100_00,
        ticks: { color: theme.muted, precision: 0, callback: (value) => formatMoney(Number(value)) },
        grid: { color: theme.grid },
        border: { color: theme.grid },
      },
    },
    plugins: {
      legend: { labels: { color: theme.fg } },
      tooltip: { ...tooltipTheme(theme), callbacks: { label: (item) => `${item.dataset.label ?? ''} ${formatMoney(item.parsed.y ?? 0)}` } },
    },
  };
  return new Chart(canvas, {
    type: 'bar',
    data: {
      labels: points.map((p) => trendLabel(p.key, byMonth, today)),
      datasets: [
        { label: '支出', data: points.map((p) => p.expenseFen), backgroundColor: theme.expense },
        { label: '收入', data: points.map((p) => p.incomeFen), backgroundColor: theme.income },
      ],
    },
    options,
    plugins: [followTheme<'bar'>(style)],
  });
}
