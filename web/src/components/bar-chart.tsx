/**
 * Revenue and expenses side by side per period, drawn as SVG. Bar heights are exact ratios of
 * bigint amounts (scaled to per-mille before becoming numbers), so huge amounts do not lose
 * their proportions; the labels come from the exact formatted strings.
 */
import { useEffect, useId, useRef, useState } from 'react';

export interface ChartGroup {
  label: string;
  /** Used when the bars are narrow ("Jan" for "Jan 2026"). */
  shortLabel: string;
  revenue: bigint;
  expenses: bigint;
  revenueLabel: string;
  expensesLabel: string;
}

const HEIGHT = 220;
const TOP = 16;
const BOTTOM = 40;
const LEFT = 52;
const PLOT_HEIGHT = HEIGHT - TOP - BOTTOM;

function ratio(value: bigint, max: bigint): number {
  if (max <= 0n || value <= 0n) return 0;
  return Number((value * 1000n) / max) / 1000;
}

const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

/** Axis labels only: a rounded, compact figure ("12.5K") of a major-unit amount. */
function tickLabel(minor: bigint, scale: number): string {
  const major = minor / 10n ** BigInt(scale);
  return compact.format(Number(major));
}

export function RevenueExpenseChart({ groups, currencyCode, scale }: { groups: ChartGroup[]; currencyCode: string; scale: number }) {
  const titleId = useId();
  const max = groups.reduce((best, group) => {
    const larger = group.revenue > group.expenses ? group.revenue : group.expenses;
    return larger > best ? larger : best;
  }, 0n);
  // Lay the bars out to fit the card; below a minimum bar size the chart scrolls sideways.
  const box = useRef<HTMLDivElement>(null);
  const [available, setAvailable] = useState(640);
  useEffect(() => {
    const element = box.current;
    if (!element) return undefined;
    const observer = new ResizeObserver(([entry]) => { if (entry) setAvailable(Math.floor(entry.contentRect.width)); });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const groupWidth = Math.min(96, Math.max(44, (available - LEFT - 8) / Math.max(groups.length, 1)));
  const barWidth = Math.min(22, Math.floor((groupWidth - 10) / 2));
  const width = Math.max(LEFT + 8 + groups.length * groupWidth, 280);
  const maxLabelChars = Math.max(4, Math.floor(groupWidth / 6.2));
  const labelOf = (group: ChartGroup) => (group.label.length > maxLabelChars ? group.shortLabel : group.label);
  // The newest periods are on the right; when the chart scrolls, start there.
  useEffect(() => {
    const element = box.current;
    if (element) element.scrollLeft = element.scrollWidth;
  }, [width]);
  return (
    <figure className="chart" data-testid="revenue-expense-chart">
      <div className="chart__legend" aria-hidden="true">
        <span><i className="chart__swatch chart__swatch--revenue" /> Revenue</span>
        <span><i className="chart__swatch chart__swatch--expenses" /> Expenses</span>
      </div>
      <div className="chart__scroll" ref={box}>
        <svg viewBox={`0 0 ${width} ${HEIGHT}`} width={width} height={HEIGHT} role="img" aria-labelledby={titleId}>
          <title id={titleId}>Revenue and expenses per period in {currencyCode}</title>
          {[0, 0.25, 0.5, 0.75, 1].map((fraction) => (
            <g key={fraction}>
              <line className="chart__grid" x1={LEFT - 4} x2={width} y1={TOP + PLOT_HEIGHT * (1 - fraction)} y2={TOP + PLOT_HEIGHT * (1 - fraction)} />
              {max > 0n ? (
                <text className="chart__tick" x={LEFT - 8} y={TOP + PLOT_HEIGHT * (1 - fraction) + 4} textAnchor="end">
                  {tickLabel((max * BigInt(fraction * 100)) / 100n, scale)}
                </text>
              ) : null}
            </g>
          ))}
          {groups.map((group, index) => {
            const x = LEFT + index * groupWidth + (groupWidth - barWidth * 2 - 4) / 2;
            const revenueHeight = ratio(group.revenue, max) * PLOT_HEIGHT;
            const expensesHeight = ratio(group.expenses, max) * PLOT_HEIGHT;
            return (
              <g key={`${group.label}-${index}`}>
                <rect className="chart__bar chart__bar--revenue" x={x} y={TOP + PLOT_HEIGHT - revenueHeight} width={barWidth}
                  height={Math.max(revenueHeight, group.revenue > 0n ? 1 : 0)} rx={3}>
                  <title>{group.label}: revenue {group.revenueLabel} {currencyCode}</title>
                </rect>
                <rect className="chart__bar chart__bar--expenses" x={x + barWidth + 4} y={TOP + PLOT_HEIGHT - expensesHeight}
                  width={barWidth} height={Math.max(expensesHeight, group.expenses > 0n ? 1 : 0)} rx={3}>
                  <title>{group.label}: expenses {group.expensesLabel} {currencyCode}</title>
                </rect>
                <text className="chart__label" x={x + barWidth + 2} y={HEIGHT - BOTTOM + 18} textAnchor="middle">
                  {labelOf(group).length > maxLabelChars ? `${labelOf(group).slice(0, maxLabelChars - 1)}…` : labelOf(group)}
                </text>
              </g>
            );
          })}
        </svg>
      </div>
      {/* The figures for screen readers. A table ignores the 1 px width of .visually-hidden, so a wrapper
          carries it: the hidden table must not widen the page on a phone. */}
      <div className="visually-hidden">
        <table>
          <caption>Revenue and expenses per period ({currencyCode})</caption>
          <thead><tr><th scope="col">Period</th><th scope="col">Revenue</th><th scope="col">Expenses</th></tr></thead>
          <tbody>
            {groups.map((group, index) => (
              <tr key={`${group.label}-${index}`}><th scope="row">{group.label}</th><td>{group.revenueLabel}</td><td>{group.expensesLabel}</td></tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
