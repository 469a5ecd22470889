import { useEffect, useRef, useState } from 'preact/hooks';
import { BOUNCE_CATEGORIES, type BounceCategory, type BounceSummary } from '../api.js';
import { CATEGORIES } from '../bounces.js';

type Day = BounceSummary['by_day'][number];

const HEIGHT = 240;
const MARGIN = { top: 12, right: 8, bottom: 28, left: 44 };
/** The width before the first measurement: the chart's at 1280 px, near enough. */
const DEFAULT_WIDTH = 700;
/** The width a date's label needs, so that labels never overlap. */
const LABEL_WIDTH = 52;

/** "24 Nov", of a UTC date (`2026-11-24`). */
export function dayLabel(date: string): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime())) return date;
  return parsed.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
}

function totalOf(counts: Record<BounceCategory, number>): number {
  return BOUNCE_CATEGORIES.reduce((sum, category) => sum + (counts[category] ?? 0), 0);
}

/** A round step (1, 2 or 5 times a power of ten) that divides 0..max into at most `ticks` parts. */
function niceStep(max: number, ticks: number): number {
  if (max <= ticks) return 1;
  const rough = max / ticks;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough);
  return step ?? 10 * power;
}

/** The width of an element, followed as the window changes. */
function useWidth(): [{ current: HTMLDivElement | null }, number] {
  const element = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  useEffect(() => {
    const target = element.current;
    if (!target) return;
    const measure = () => setWidth(Math.max(200, Math.floor(target.clientWidth)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(target);
    return () => observer.disconnect();
  }, []);
  return [element, width];
}

/**
 * A stacked bar a day, a colour a category (set by class in styles.css), each segment titled with
 * its day, category and count. The picture is one image to assistive technology: the same numbers
 * are in the table that follows it.
 */
export function BounceChart({ days, label }: { days: readonly Day[]; label: string }) {
  const [wrapper, width] = useWidth();
  const plotWidth = width - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const highest = Math.max(1, ...days.map((day) => totalOf(day.counts)));
  const step = niceStep(highest, 4);
  const top = Math.ceil(highest / step) * step;
  const y = (value: number) => MARGIN.top + plotHeight - (value / top) * plotHeight;
  const slot = plotWidth / Math.max(1, days.length);
  const barWidth = Math.max(2, Math.min(48, slot * 0.7));
  const labelEvery = Math.max(1, Math.ceil(LABEL_WIDTH / slot));
  const ticks: number[] = [];
  for (let value = 0; value <= top; value += step) ticks.push(value);

  return (
    <div ref={wrapper} class="chart">
      <svg
        role="img"
        aria-label={label}
        width={width}
        height={HEIGHT}
        viewBox={`0 0 ${width} ${HEIGHT}`}
        class="chart-svg"
      >
        {ticks.map((value) => (
          <g key={value}>
            <line class="chart-grid" x1={MARGIN.left} x2={width - MARGIN.right} y1={y(value)} y2={y(value)} />
            <text class="chart-label" x={MARGIN.left - 6} y={y(value)} dy="0.32em" text-anchor="end">
              {value.toLocaleString('en-GB')}
            </text>
          </g>
        ))}
        {days.map((day, index) => {
          const x = MARGIN.left + slot * index + (slot - barWidth) / 2;
          let base = 0;
          return (
            <g key={day.date}>
              {BOUNCE_CATEGORIES.map((category) => {
                const count = day.counts[category] ?? 0;
                if (count === 0) return null;
                const y0 = y(base);
                base += count;
                const y1 = y(base);
                return (
                  <rect
                    key={category}
                    class={`chart-segment category-fill-${category}`}
                    x={x}
                    y={y1}
                    width={barWidth}
                    height={Math.max(1, y0 - y1)}
                  >
                    <title>
                      {dayLabel(day.date)}: {CATEGORIES[category].label}, {count.toLocaleString('en-GB')}
                    </title>
                  </rect>
                );
              })}
              {index % labelEvery === 0 && (
                <text class="chart-label" x={x + barWidth / 2} y={HEIGHT - 8} text-anchor="middle">
                  {dayLabel(day.date)}
                </text>
              )}
            </g>
          );
        })}
        <line
          class="chart-axis"
          x1={MARGIN.left}
          x2={width - MARGIN.right}
          y1={MARGIN.top + plotHeight}
          y2={MARGIN.top + plotHeight}
        />
      </svg>
    </div>
  );
}

/** The colours' key, in the chart's order from the bottom up. */
export function ChartLegend() {
  return (
    <ul class="legend" aria-label="Colours of the chart">
      {BOUNCE_CATEGORIES.map((category) => (
        <li key={category}>
          <span class={`swatch category-fill-${category}`} aria-hidden="true" />
          {CATEGORIES[category].label}
        </li>
      ))}
    </ul>
  );
}

/** The chart's numbers: a row a day, a column a category. */
export function ChartTable({ days }: { days: readonly Day[] }) {
  return (
    <div class="table-scroll" role="region" aria-label="Bounces by day and category" tabIndex={0}>
      <table class="table numbers">
        <thead>
          <tr>
            <th scope="col">Day (UTC)</th>
            {BOUNCE_CATEGORIES.map((category) => (
              <th scope="col" key={category} class="number">
                {CATEGORIES[category].label}
              </th>
            ))}
            <th scope="col" class="number">
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day.date}>
              <th scope="row">{dayLabel(day.date)}</th>
              {BOUNCE_CATEGORIES.map((category) => (
                <td key={category} class="number">
                  {(day.counts[category] ?? 0).toLocaleString('en-GB')}
                </td>
              ))}
              <td class="number">{totalOf(day.counts).toLocaleString('en-GB')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
