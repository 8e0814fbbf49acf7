import { useId } from 'react';
import { formatShortDate } from '@/shared/lib/format-date';
import { formatPoints, formatRoubles, pointsWord } from '@/shared/lib/format-money';
import styles from './balance-chart.module.css';
import type { BalancePoint } from './balance-series';

const WIDTH = 600;
const HEIGHT = 160;
const PAD_Y = 12;

function formatValue(value: number, currency: 'rub' | 'points') {
  return currency === 'rub' ? formatRoubles(value) : `${formatPoints(value)} ${pointsWord(value)}`;
}

/** Scales the series into the drawing box; time on x (evenly spaced if it all happened at once). */
function toCoordinates(points: readonly BalancePoint[]) {
  const first = points[0]?.time ?? 0;
  const last = points.at(-1)?.time ?? 0;
  const balances = points.map((point) => point.balance);
  const min = Math.min(0, ...balances);
  const max = Math.max(...balances);
  const span = max - min || 1;
  const timeSpan = last - first;
  return points.map((point, index) => ({
    x:
      timeSpan > 0
        ? ((point.time - first) / timeSpan) * WIDTH
        : (index / Math.max(1, points.length - 1)) * WIDTH,
    y: PAD_Y + (1 - (point.balance - min) / span) * (HEIGHT - 2 * PAD_Y),
  }));
}

/** A small step chart of the balance over time: inline SVG, no chart library. */
export function BalanceChart({
  points,
  currency,
}: {
  points: readonly BalancePoint[];
  currency: 'rub' | 'points';
}) {
  // useId's characters are not all valid inside url(#…).
  const gradientId = `balance-fill-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  if (points.length < 2) {
    return <p className={styles.empty}>Здесь появится график, когда будут операции</p>;
  }
  const coordinates = toCoordinates(points);
  const line = coordinates
    .map(({ x, y }, index) => `${index === 0 ? 'M' : 'L'}${x.toFixed(2)},${y.toFixed(2)}`)
    .join(' ');
  const area = `${line} L${WIDTH},${HEIGHT} L0,${HEIGHT} Z`;
  const balances = points.map((point) => point.balance);
  const lowest = Math.min(...balances);
  const highest = Math.max(...balances);
  const from = points[0]?.time ?? 0;
  const end = coordinates.at(-1);

  return (
    <figure className={styles.figure}>
      <div className={styles.plot}>
        <svg
          className={styles.svg}
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={`График баланса: от ${formatValue(lowest, currency)} до ${formatValue(highest, currency)}`}
        >
          <defs>
            <linearGradient id={gradientId} x1="0" y1="0" x2="0" y2="1">
              <stop offset="0%" stopColor="var(--accent)" stopOpacity="0.35" />
              <stop offset="100%" stopColor="var(--accent)" stopOpacity="0" />
            </linearGradient>
          </defs>
          <path d={area} fill={`url(#${gradientId})`} />
          <path
            d={line}
            fill="none"
            stroke="var(--accent)"
            strokeWidth="2.5"
            strokeLinejoin="round"
            vectorEffect="non-scaling-stroke"
          />
        </svg>
        {end ? (
          // A dot in HTML: inside the stretched SVG a circle would turn into an ellipse.
          <span
            className={styles.dot}
            style={{ left: `${(end.x / WIDTH) * 100}%`, top: `${(end.y / HEIGHT) * 100}%` }}
          />
        ) : null}
      </div>
      <figcaption className={styles.caption}>
        <span>{formatShortDate(new Date(from))}</span>
        <span className={styles.range}>
          мин. {formatValue(lowest, currency)} · макс. {formatValue(highest, currency)}
        </span>
        <span>сегодня</span>
      </figcaption>
    </figure>
  );
}
