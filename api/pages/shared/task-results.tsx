// A study's per-task results as the study page and the study report page show them: could people
// do each task, how long it took those who did, how easy they found it; overall as charts, and
// split by kind of tester as a completion chart and a table per split (commands/studies/study-results.ts
// computes the figures).
import { duration } from '../../../lib/duration-text.ts';
import { taskName } from '../../../lib/analysis/task-name.ts';
import {
  MIN_GROUP_TESTERS,
  type GroupFigures,
  type TaskFigures,
  type TaskResults,
} from '../../../lib/analysis/task-results.ts';
import { BarChart, type ChartRow } from './charts.tsx';

/** One task's results with its title, as `studyResults` answers them. */
export type TitledTaskResults = TaskResults & { readonly title: string };

const percent = (share: number) => `${Math.round(share * 100)} %`;

function completionText(figures: TaskFigures): string {
  if (figures.withheld) return `withheld: a group of this split has fewer than ${MIN_GROUP_TESTERS} testers`;
  if (!figures.testers || !figures.completionRate) return 'no attempt has ended yet';
  const { value, low, high } = figures.completionRate;
  return `${figures.completed} of ${figures.testers} completed, ${percent(value)} (95 % interval ${percent(low)} to ${percent(high)}); ${figures.abandoned} gave up`;
}

function timeText(figures: TaskFigures): string {
  if (figures.withheld) return 'withheld';
  if (!figures.timeOnTaskSeconds) return 'no completed attempt yet';
  const { value, low, high } = figures.timeOnTaskSeconds;
  return `${duration(value * 1000)} (95 % interval ${duration(low * 1000)} to ${duration(high * 1000)})`;
}

const easeText = (figures: TaskFigures) =>
  figures.withheld
    ? 'withheld'
    : figures.meanEase === null
      ? 'no answer yet'
      : `${figures.meanEase.toFixed(1)} of 7`;

/** A scale end above every value, on a round number of minutes (or 30 s steps below two minutes). */
function timeScale(tasks: readonly TitledTaskResults[]): { max: number; ticks: number[] } {
  const highest = Math.max(60, ...tasks.map((task) => task.overall.timeOnTaskSeconds?.high ?? 0));
  const step = highest <= 120 ? 30 : Math.ceil(highest / 4 / 60) * 60;
  const max = Math.ceil(highest / step) * step;
  return { max, ticks: Array.from({ length: max / step + 1 }, (_, i) => i * step) };
}

/** A bar of completion: the rate with its interval, or nothing when withheld or not known yet. */
function completionRow(label: string, figures: TaskFigures): ChartRow {
  const rate = figures.withheld ? null : figures.completionRate;
  return {
    label,
    value: rate ? rate.value * 100 : null,
    low: rate ? rate.low * 100 : null,
    high: rate ? rate.high * 100 : null,
    text: completionText(figures),
  };
}

function CompletionChart(props: {
  id: string;
  title: string;
  labelHeading: string;
  rows: readonly ChartRow[];
  table?: boolean;
}) {
  return (
    <BarChart
      {...props}
      summary="The share of testers whose attempt ended who completed the task, with its adjusted-Wald 95 % interval as a line across the bar."
      max={100}
      ticks={[0, 25, 50, 75, 100]}
      tickText={(tick) => `${tick} %`}
      valueHeading="Completed"
    />
  );
}

/** Completion with its interval, time on task and ease, one bar per task; each with its table. */
export function TaskResultCharts({
  tasks,
  idPrefix,
}: {
  tasks: readonly TitledTaskResults[];
  idPrefix: string;
}) {
  const completion = tasks.map((task) => completionRow(taskName(task), task.overall));
  const time: ChartRow[] = tasks.map((task) => {
    const seconds = task.overall.timeOnTaskSeconds;
    return {
      label: taskName(task),
      value: seconds?.value ?? null,
      low: seconds?.low ?? null,
      high: seconds?.high ?? null,
      text: timeText(task.overall),
    };
  });
  const ease: ChartRow[] = tasks.map((task) => ({
    label: taskName(task),
    value: task.overall.meanEase,
    text: easeText(task.overall),
  }));
  const scale = timeScale(tasks);
  return (
    <>
      <CompletionChart
        id={`${idPrefix}-completion`}
        title="Task completion"
        labelHeading="Task"
        rows={completion}
      />
      <BarChart
        id={`${idPrefix}-time`}
        title="Time on task"
        summary="The time completed attempts took, pauses left out: the geometric mean of each task, with its 95 % interval as a line across the bar."
        max={scale.max}
        ticks={scale.ticks}
        tickText={(tick) => duration(tick * 1000)}
        labelHeading="Task"
        valueHeading="Time on task"
        rows={time}
      />
      <BarChart
        id={`${idPrefix}-ease`}
        title="Ease"
        summary="The mean answer to the Single Ease Question after each task, from 1 (very difficult) to 7 (very easy)."
        min={1}
        max={7}
        ticks={[1, 2, 3, 4, 5, 6, 7]}
        tickText={(tick) => String(tick)}
        labelHeading="Task"
        valueHeading="Mean ease"
        rows={ease}
      />
    </>
  );
}

const SPLITS = [
  ['byVariant', 'By variant'],
  ['byAssistiveTechnology', 'By assistive technology'],
  ['byDevice', 'By device'],
  ['byCountry', 'By country'],
] as const;

/**
 * One task's figures split by variant and kind of tester: per split, completion by group as a chart
 * (unless the split is withheld: a chart of nothing says nothing) and every figure in the table
 * after it, which is the chart's data table too.
 */
export function TaskSplits({
  task,
  minimumGroupTesters,
}: {
  task: TitledTaskResults;
  minimumGroupTesters: number;
}) {
  const splits = SPLITS.filter(([key]) => task[key].length);
  return (
    <section aria-labelledby={`task-${task.order}-splits`}>
      <h3 id={`task-${task.order}-splits`}>{taskName(task)}</h3>
      <p>{completionText(task.overall)}.</p>
      {task.successPage ? (
        <p>
          {`Success page ${task.successPage.page}: reached in ${task.successPage.reached} of ${task.successPage.judged} judged attempts; `}
          {`${task.successPage.doneWithoutReaching} said done without reaching it, ${task.successPage.gaveUpAfterReaching} gave up after reaching it.`}
        </p>
      ) : null}
      {splits.length ? (
        splits.map(([key, heading]) => {
          const groups = task[key];
          const label = heading.replace(/^By /, '');
          return (
            <div key={key}>
              {groups.some((group) => group.withheld) ? null : (
                <CompletionChart
                  id={`task-${task.order}-${key}`}
                  title={`Task ${task.order}, completion ${heading.toLowerCase()}`}
                  labelHeading={label.charAt(0).toUpperCase() + label.slice(1)}
                  rows={groups.map((group) => completionRow(groupName(group), group))}
                  table={false} // the split's table below holds these figures
                />
              )}
              <SplitTable caption={`Task ${task.order}, ${heading.toLowerCase()}`} groups={groups} />
            </div>
          );
        })
      ) : (
        <p>No attempt at this task has ended yet.</p>
      )}
      <p class="hint">{`A split is withheld whole when any of its groups has fewer than ${minimumGroupTesters} testers.`}</p>
    </section>
  );
}

const groupName = (group: GroupFigures) => group.group.replaceAll('_', ' ');

function SplitTable({ caption, groups }: { caption: string; groups: readonly GroupFigures[] }) {
  return (
    <table>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Group</th>
          <th scope="col">Testers</th>
          <th scope="col">Completed</th>
          <th scope="col">Time on task</th>
          <th scope="col">Mean ease</th>
        </tr>
      </thead>
      <tbody>
        {groups.map((group) => (
          <tr key={group.group}>
            <th scope="row">{groupName(group)}</th>
            <td>{group.testers}</td>
            <td>{completionText(group)}</td>
            <td>{timeText(group)}</td>
            <td>{easeText(group)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
