import type { BarrierMoment, EventSignal } from '../signals.ts';

const FIELD_REFOCUS = 3;
/** Focus moving this often among at most a handful of elements, with nothing else happening. */
const FOCUS_CYCLE_MOVES = 8;
const FOCUS_CYCLE_ELEMENTS = 4;
/** A deletion of at least this many characters (or emptying the field) before typing again. */
const CORRECTION_CHARACTERS = 3;
const CORRECTIONS = 2;
/** Enter in the last field submits without a click: a navigation this soon after input is a submit. */
const ENTER_SUBMIT_MS = 1_500;
/** Selectors of controls that send a form. */
const SUBMIT_LIKE =
  /submit|send|pay|continue|next|save|confirm|checkout|order|sign[-_ ]?(in|up)|log[-_ ]?in|register|search|apply|finish|done/i;

/** A field the tester focused 3+ times and typed into: its label or format did not help. */
export function fieldStruggleMoments(events: readonly EventSignal[]): BarrierMoment[] {
  const typedInto = new Set<string>();
  const focuses = new Map<string, { first: EventSignal; count: number }>();
  for (const event of events) {
    if (event.type === 'input') typedInto.add(event.target);
    if (event.type !== 'focus') continue;
    const seen = focuses.get(event.target);
    if (seen) seen.count += 1;
    else focuses.set(event.target, { first: event, count: 1 });
  }
  return [...focuses.entries()]
    .filter(([target, { count }]) => count >= FIELD_REFOCUS && typedInto.has(target))
    .map(([target, { first, count }]) => ({
      kind: 'field_struggle',
      at: first.at,
      target,
      severity: count >= FIELD_REFOCUS * 2 ? 'high' : 'medium',
      evidence: `the field \`${target}\` was focused ${count} times before it was left`,
    }));
}

/**
 * Focus cycling, a possible keyboard trap: 8+ focus changes in a row among at most 4 elements,
 * each focused at least twice, with no click, input or navigation in between.
 */
export function focusCyclingMoments(events: readonly EventSignal[]): BarrierMoment[] {
  const moments: BarrierMoment[] = [];
  let run: EventSignal[] = [];
  const close = () => {
    if (run.length >= FOCUS_CYCLE_MOVES) {
      const counts = new Map<string, number>();
      for (const focus of run) counts.set(focus.target, (counts.get(focus.target) ?? 0) + 1);
      const cycling = counts.size <= FOCUS_CYCLE_ELEMENTS && [...counts.values()].every((n) => n >= 2);
      if (cycling) {
        const elements = [...counts.keys()].map((target) => `\`${target}\``).join(', ');
        moments.push({
          kind: 'focus_cycling',
          at: run[0]!.at,
          target: run[0]!.target,
          severity: 'high',
          evidence: `focus moved ${run.length} times around the same ${counts.size} elements (${elements}) without leaving them`,
        });
      }
    }
    run = [];
  };
  for (const event of events) {
    if (event.type === 'focus') run.push(event);
    else if (event.type === 'click' || event.type === 'input' || event.type === 'navigation') close();
  }
  close();
  return moments;
}

/**
 * Form abandonment: fields were filled in on a page and the tester navigated away without a click
 * on a submitting control (and not right after typing, which is Enter submitting). A session that
 * simply ends is not judged.
 */
export function formAbandonmentMoments(events: readonly EventSignal[]): BarrierMoment[] {
  const moments: BarrierMoment[] = [];
  let filled = new Map<string, number>();
  let lastInput: EventSignal | undefined;
  let submitted = false;
  for (const event of events) {
    if (event.type === 'input') {
      filled.set(event.target, event.inputLength ?? 1);
      lastInput = event;
      submitted = false;
    } else if (event.type === 'click' && lastInput && SUBMIT_LIKE.test(event.target)) {
      submitted = true;
    } else if (event.type === 'navigation') {
      const withData = [...filled.entries()].filter(([, length]) => length > 0).map(([target]) => target);
      const enterSubmit = lastInput && event.at.getTime() - lastInput.at.getTime() <= ENTER_SUBMIT_MS;
      if (lastInput && withData.length && !submitted && !enterSubmit) {
        moments.push({
          kind: 'form_abandonment',
          at: event.at,
          target: lastInput.target,
          severity: 'medium',
          evidence: `${withData.length} field${withData.length === 1 ? ' was' : 's were'} filled in (${withData
            .slice(0, 3)
            .map((t) => `\`${t}\``)
            .join(', ')}) and the page was left without submitting`,
        });
      }
      filled = new Map();
      lastInput = undefined;
      submitted = false;
    }
  }
  return moments;
}

/**
 * Repeated input corrections: in one field, text deleted (3+ characters, or the field emptied) and
 * typed again, twice or more. Reads `inputLength` going down, then up.
 */
export function inputCorrectionMoments(events: readonly EventSignal[]): BarrierMoment[] {
  interface FieldState {
    length: number;
    deletedFrom: number | null;
    corrections: number;
    first: EventSignal | null;
  }
  const fields = new Map<string, FieldState>();
  for (const event of events) {
    if (event.type !== 'input' || event.inputLength == null) continue;
    const length = event.inputLength;
    const state = fields.get(event.target);
    if (!state) {
      fields.set(event.target, { length, deletedFrom: null, corrections: 0, first: null });
      continue;
    }
    if (length < state.length) {
      state.deletedFrom ??= state.length;
    } else if (length > state.length && state.deletedFrom !== null) {
      const deleted = state.deletedFrom - state.length;
      if (deleted >= CORRECTION_CHARACTERS || state.length === 0) {
        state.corrections += 1;
        state.first ??= event;
      }
      state.deletedFrom = null;
    }
    state.length = length;
  }
  return [...fields.entries()]
    .filter(([, state]) => state.corrections >= CORRECTIONS)
    .map(([target, state]) => ({
      kind: 'input_corrections',
      at: state.first!.at,
      target,
      severity: state.corrections >= CORRECTIONS * 2 ? 'high' : 'medium',
      evidence: `the entry in \`${target}\` was deleted and typed again ${state.corrections} times`,
    }));
}
