// Charts as the pages draw them: server-rendered SVG, no script. Each is a figure with a caption,
// the picture (role img, named by its own title and described by its own description, which
// states every value) and the same figures as a data table beside it, so a screen-reader user, a
// keyboard user and someone who cannot tell the bars apart read exactly what the picture shows.

/** One bar: a value on the chart's scale, with its 95 % interval when there is one. */
export interface ChartRow {
  readonly label: string;
  /** Null: nothing to show yet (the row says why in `text`). */
  readonly value: number | null;
  readonly low?: number | null;
  readonly high?: number | null;
  /** The value as the table and the description state it ("80 % (36 to 98 %)"). */
  readonly text: string;
}

export interface BarChartProps {
  /** Unique in the page: the ids of the title, description and table derive from it. */
  readonly id: string;
  readonly title: string;
  /** What the chart shows and how to read it, before the values. */
  readonly summary: string;
  /** The scale's end; bars start at `min`. */
  readonly min?: number;
  readonly max: number;
  /** Tick values along the scale, and how a tick is written. */
  readonly ticks: readonly number[];
  readonly tickText: (value: number) => string;
  readonly labelHeading: string;
  readonly valueHeading: string;
  readonly rows: readonly ChartRow[];
  /** False when a table right after the chart already holds these figures (with more). */
  readonly table?: boolean;
}

const WIDTH = 640;
const LABEL_WIDTH = 200;
const PLOT_WIDTH = 380;
const ROW_HEIGHT = 34;
const TOP = 28;
const BAR_HEIGHT = 16;

/** Labels longer than this are cut in the picture (the table beside it has them whole). */
const LABEL_CHARACTERS = 26;

const cut = (text: string) =>
  text.length > LABEL_CHARACTERS ? `${text.slice(0, LABEL_CHARACTERS - 1).trimEnd()}…` : text;

/** A horizontal bar per row, its interval as a whisker, a scale above; the data table beside it. */
export function BarChart(props: BarChartProps) {
  const { id, title, summary, ticks, tickText, rows } = props;
  const min = props.min ?? 0;
  const x = (value: number) =>
    LABEL_WIDTH + (Math.min(Math.max(value, min), props.max) - min) * (PLOT_WIDTH / (props.max - min));
  const height = TOP + rows.length * ROW_HEIGHT + 8;
  const description = `${summary} ${rows.map((row) => `${row.label}: ${row.text}.`).join(' ')}`;
  return (
    <figure class="chart" aria-labelledby={`${id}-caption`}>
      <figcaption id={`${id}-caption`}>{title}</figcaption>
      <svg
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-desc`}
        viewBox={`0 0 ${WIDTH} ${height}`}
        width="100%"
        preserveAspectRatio="xMinYMin meet"
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={x(tick)} x2={x(tick)} y1={TOP - 6} y2={height - 8} class="chart-grid" />
            <text x={x(tick)} y={TOP - 10} text-anchor="middle" class="chart-tick">
              {tickText(tick)}
            </text>
          </g>
        ))}
        {rows.map((row, index) => {
          const middle = TOP + index * ROW_HEIGHT + ROW_HEIGHT / 2;
          const hasInterval = row.low != null && row.high != null;
          return (
            <g key={row.label}>
              <text x={LABEL_WIDTH - 8} y={middle + 5} text-anchor="end" class="chart-label">
                {cut(row.label)}
              </text>
              {row.value === null ? (
                <text x={LABEL_WIDTH + 4} y={middle + 5} class="chart-value">
                  {row.text}
                </text>
              ) : (
                <>
                  <rect
                    x={LABEL_WIDTH}
                    y={middle - BAR_HEIGHT / 2}
                    width={Math.max(1, x(row.value) - LABEL_WIDTH)}
                    height={BAR_HEIGHT}
                    class="chart-bar"
                  />
                  {hasInterval
                    ? // A white halo under the black whisker keeps it visible across the bar.
                      ['chart-interval-halo', 'chart-interval'].map((layer) => (
                        <g class={layer} key={layer}>
                          <line x1={x(row.low!)} x2={x(row.high!)} y1={middle} y2={middle} />
                          <line x1={x(row.low!)} x2={x(row.low!)} y1={middle - 7} y2={middle + 7} />
                          <line x1={x(row.high!)} x2={x(row.high!)} y1={middle - 7} y2={middle + 7} />
                        </g>
                      ))
                    : null}
                </>
              )}
            </g>
          );
        })}
      </svg>
      {props.table === false ? null : (
        <table class="chart-table">
          <caption class="visually-hidden">{`${title}: the figures`}</caption>
          <thead>
            <tr>
              <th scope="col">{props.labelHeading}</th>
              <th scope="col">{props.valueHeading}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.label}>
                <th scope="row">{row.label}</th>
                <td>{row.text}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </figure>
  );
}
