import type { ProvisioningEntry } from '@latchkey/contracts/client';
import { useElementSize } from '@mantine/hooks';
import { formatMonth, formatNumber } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';

/** Whole-number ticks from 0 to at least `max` (spec §9: integer y-axis). */
export function integerTicks(max: number, wanted = 4): number[] {
  const step = Math.max(1, Math.ceil(max / wanted));
  const top = Math.max(step, Math.ceil(max / step) * step);
  const ticks: number[] = [];
  for (let v = 0; v <= top; v += step) ticks.push(v);
  return ticks;
}

/** A month label's anchor: the first grows to the right, the last to the left, the others centred. */
export function edgeAnchor(i: number, count: number): 'start' | 'middle' | 'end' {
  if (count > 1 && i === 0) return 'start';
  if (count > 1 && i === count - 1) return 'end';
  return 'middle';
}

/**
 * Show every n-th month label so that none touch: about 6.5 px a character at 11 px (month names
 * are longer in some languages, "أغسطس 26" or "Sept. 26"), and half as much again between two, as
 * the last label grows inwards by its whole width.
 */
export function monthLabelEvery(labels: string[], plotWidth: number): number {
  if (labels.length < 2) return 1;
  const longest = Math.max(...labels.map((l) => l.length)) * 6.5 + 8;
  const step = plotWidth / (labels.length - 1);
  return Math.max(1, Math.ceil((longest * 1.5) / step));
}

const SERIES = [
  { key: 'onboarded', color: 'var(--mantine-color-teal-6)', label: 'dashboard.onboarded' },
  { key: 'deboarded', color: 'var(--mantine-color-orange-5)', label: 'dashboard.deboarded' },
] as const;

/** Onboarded (green) and deboarded (amber) lines by month with an integer y-axis and a legend; its own lazy chunk. */
export function ProvisioningChart({ data }: { data: ProvisioningEntry[] }) {
  const { t } = useTranslation();
  // Drawn at the card's own width, so labels keep their size from phone to desktop (a scaled
  // drawing shrank them to 7 px on a phone).
  const { ref, width: measured } = useElementSize();
  // Never wider than its card (at 320 px the card has ~220 px): a wider drawing was cut at its right edge.
  const width = Math.max(160, Math.round(measured) || 420);
  const height = Math.min(260, Math.max(180, Math.round(width * 0.45)));
  const pad = { left: 32, right: 22, top: 10, bottom: 24 };
  const labelEvery = monthLabelEvery(
    data.map((d) => formatMonth(d.date)),
    width - pad.left - pad.right,
  );
  const ticks = integerTicks(Math.max(0, ...data.flatMap((d) => [d.onboarded, d.deboarded])));
  const top = ticks.at(-1) ?? 1;
  const x = (i: number) => pad.left + (data.length > 1 ? (i * (width - pad.left - pad.right)) / (data.length - 1) : 0);
  const y = (v: number) => pad.top + (1 - v / top) * (height - pad.top - pad.bottom);
  return (
    // A size container: the drawing's box below takes its height from this width (cqw).
    <div ref={ref} style={{ containerType: 'inline-size' }}>
      {/* The drawing's box has the height below from the first frame, worked out by CSS from the
          card's width: measured a frame later, a drawing that grew pushed the cards under it down. */}
      <div style={{ height: 'clamp(180px, 45cqw, 260px)' }}>
        {/* Drawn left to right in every language: in a right-to-left page an SVG's text-anchor flips, so the
          y-axis figures slid over the first points and the last month ran off the edge. */}
        <svg
          viewBox={`0 0 ${width} ${height}`}
          // The card's width, not the drawing's: a fixed width made the card's column as wide as the first drawing.
          width="100%"
          height="100%"
          direction="ltr"
          style={{ display: 'block', direction: 'ltr' }}
          data-testid="provisioning-chart"
          aria-hidden
        >
          {ticks.map((v) => (
            <g key={v}>
              <line x1={pad.left} x2={width - pad.right} y1={y(v)} y2={y(v)} stroke="var(--mantine-color-gray-2)" />
              <text
                x={pad.left - 8}
                y={y(v) + 4}
                textAnchor="end"
                fontSize="11"
                fill="var(--mantine-color-dimmed)"
                data-testid="provisioning-tick"
              >
                {formatNumber(v)}
              </text>
            </g>
          ))}
          {data.map((d, i) => (
            <text
              key={d.date}
              x={x(i) + (edgeAnchor(i, data.length) === 'start' ? -6 : edgeAnchor(i, data.length) === 'end' ? 6 : 0)}
              y={height - 8}
              // The first and last month labels grow inwards, so they are never cut at the chart's edges.
              textAnchor={edgeAnchor(i, data.length)}
              fontSize="11"
              fill="var(--mantine-color-dimmed)"
              data-testid="provisioning-month"
            >
              {(data.length - 1 - i) % labelEvery === 0 ? formatMonth(d.date) : ''}
            </text>
          ))}
          {SERIES.map((s) => (
            <g key={s.key}>
              <polyline
                fill="none"
                stroke={s.color}
                strokeWidth={2.5}
                strokeLinejoin="round"
                points={data.map((d, i) => `${x(i)},${y(d[s.key])}`).join(' ')}
              />
              {data.map((d, i) => (
                <circle key={d.date} cx={x(i)} cy={y(d[s.key])} r={3} fill={s.color} data-testid="provisioning-point" />
              ))}
            </g>
          ))}
        </svg>
      </div>
      <div style={{ display: 'flex', gap: 16, justifyContent: 'center', fontSize: 13 }} data-testid="provisioning-legend">
        {SERIES.map((s) => (
          <span key={s.key} style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
            <span style={{ width: 14, height: 3, background: s.color, borderRadius: 2 }} />
            {t(s.label)}
          </span>
        ))}
      </div>
    </div>
  );
}
