import { ArcElement, BarController, BarElement, CategoryScale, Chart, DoughnutController, Legend, LinearScale, Tooltip } from 'chart.js';
import type { TrendPoint } from '@shared/ipc/ledger';
import { fenToYuan } from '@shared/money';
import type { Slice } from './breakdown';

// chart.js v4, tree-shaken to the two chart types the 统计 page draws.
Chart.register(DoughnutController, ArcElement, BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

const PALETTE = ['#e4572e', '#f3a712', '#29335c', '#669bbc', '#a8c686', '#8e6c8a', '#9ca3af'];

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

export function drawDonut(canvas: HTMLCanvasElement, slices: Slice[], onPick: (slice: Slice) => void): Chart {
  return new Chart(canvas, {
    type: 'doughnut',
    data: {
      labels: slices.map((s) => s.label),
      datasets: [
        { data: slices.map((s) => fenToYuan(s.totalFen)), backgroundColor: slices.map((_, i) => PALETTE[i % PALETTE.length]!), borderWidth: 0 },
      ],
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      cutout: '62%',
      plugins: { legend: { display: false } },
      onClick: (_event, elements) => {
        const hit = elements[0];
        if (hit) onPick(slices[hit.index]!);
      },
    },
  });
}

export function sliceColor(index: number): string {
  return PALETTE[index % PALETTE.length]!;
}

export function drawTrend(canvas: HTMLCanvasElement, points: TrendPoint[], byMonth: boolean): Chart {
  const fg = cssVar('--muted', '#6b7280');
  const grid = cssVar('--border', '#e5e7eb');
  return new Chart(canvas, {
    type: 'bar',
    data: {
      labels: points.map((p) => (byMonth ? `${Number(p.key.slice(5, 7))}月` : `${Number(p.key.slice(8, 10))}日`)),
      datasets: [
        { label: '支出', data: points.map((p) => fenToYuan(p.expenseFen)), backgroundColor: cssVar('--expense', '#b91c1c') },
        { label: '收入', data: points.map((p) => fenToYuan(p.incomeFen)), backgroundColor: cssVar('--income', '#15803d') },
      ],
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      scales: {
        x: { ticks: { color: fg }, grid: { display: false } },
        y: { ticks: { color: fg }, grid: { color: grid }, beginAtZero: true },
      },
      plugins: { legend: { labels: { color: fg } } },
    },
  });
}
