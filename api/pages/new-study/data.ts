import type { FieldErrors } from '../shared/form-fields.tsx';
import { blankless, notNumberErrors, numberOf, postedRows } from '../shared/form-input.ts';

/** The study settings offered as checkboxes, by their field in the create body. */
export const SETTING_SWITCHES = ['requireThinkAloud', 'recordScreen', 'recordFacial', 'recordVoice'] as const;

/** Rows of the form beyond the ones shown; the API takes at most 100 tasks and 10 variants. */
export const MAX_TASK_ROWS = 100;
export const MAX_VARIANT_ROWS = 10;

export interface TaskRow {
  readonly title: string;
  readonly description: string;
  readonly successCriteria: string;
}

export interface VariantRow {
  readonly label: string;
  readonly description: string;
  /** The variant's share of the testers, a proportion (the variants' shares sum to 1). */
  readonly share: string;
}

/** What the create-study form shows: blank, or what was just posted (rows without blank ones). */
export interface NewStudyValues {
  readonly title: string;
  readonly description: string;
  readonly prototypeUrl: string;
  readonly prototypeType: string;
  readonly tasks: readonly TaskRow[];
  readonly countries: string;
  readonly ageMin: string;
  readonly ageMax: string;
  readonly devices: readonly string[];
  readonly languages: string;
  readonly testerCount: string;
  readonly currency: string;
  readonly amount: string;
  readonly switches: readonly string[];
  readonly maxDurationMinutes: string;
  readonly reminderAfterHours: string;
  readonly toneProfile: string;
  readonly abTestEnabled: boolean;
  readonly variants: readonly VariantRow[];
  /** Sent with the form, so a second press of its button answers the study the first one made. */
  readonly idempotencyKey: string;
}

const TASK_FIELDS = ['title', 'description', 'successCriteria'] as const;
const VARIANT_FIELDS = ['label', 'description', 'share'] as const;

/** The form's name of a task's or variant's field: `task-2-title` (qs would read brackets as nesting). */
export const taskField = (row: number, field: (typeof TASK_FIELDS)[number]) => `task-${row + 1}-${field}`;
export const variantField = (row: number, field: (typeof VARIANT_FIELDS)[number]) =>
  `variant-${row + 1}-${field}`;

const BLANK_TASK: TaskRow = { title: '', description: '', successCriteria: '' };
const BLANK_VARIANT: VariantRow = { label: '', description: '', share: '' };

export function blankStudyValues(idempotencyKey: string): NewStudyValues {
  return {
    title: '',
    description: '',
    prototypeUrl: '',
    prototypeType: 'url',
    tasks: [BLANK_TASK, BLANK_TASK, BLANK_TASK],
    countries: '',
    ageMin: '',
    ageMax: '',
    devices: [],
    languages: 'en',
    testerCount: '',
    currency: '',
    amount: '',
    switches: [],
    maxDurationMinutes: '60',
    reminderAfterHours: '',
    toneProfile: 'moderate',
    abTestEnabled: false,
    variants: [
      { ...BLANK_VARIANT, label: 'A' },
      { ...BLANK_VARIANT, label: 'B' },
    ],
    idempotencyKey,
  };
}

export function postedStudyValues(
  form: Readonly<Record<string, string>>,
  lists: { readonly devices: readonly string[]; readonly switches: readonly string[] },
  idempotencyKey: string,
): NewStudyValues {
  const value = (name: string) => form[name] ?? '';
  return {
    title: value('title'),
    description: value('description'),
    prototypeUrl: value('prototypeUrl').trim(),
    prototypeType: value('prototypeType'),
    tasks: postedRows(form, 'task', TASK_FIELDS, MAX_TASK_ROWS),
    countries: value('targeting-countries'),
    ageMin: value('targeting-ageRange-min').trim(),
    ageMax: value('targeting-ageRange-max').trim(),
    devices: lists.devices,
    languages: value('targeting-languages'),
    testerCount: value('targeting-testerCount').trim(),
    currency: value('compensation-currency').trim(),
    amount: value('compensation-amount').trim(),
    switches: lists.switches,
    maxDurationMinutes: value('settings-maxDurationMinutes').trim(),
    reminderAfterHours: value('settings-reminderAfterHours').trim(),
    toneProfile: value('toneProfile'),
    abTestEnabled: value('abTest-enabled') === 'on',
    variants: postedRows(form, 'variant', VARIANT_FIELDS, MAX_VARIANT_ROWS),
    idempotencyKey,
  };
}

/** The rows to show again: what was posted, at least one task and two variants, one more if asked. */
export function withRows(values: NewStudyValues, add: string | undefined): NewStudyValues {
  const tasks = [...values.tasks];
  const variants = [...values.variants];
  if (!tasks.length || (add === 'task' && tasks.length < MAX_TASK_ROWS)) tasks.push(BLANK_TASK);
  while (variants.length < 2) variants.push(BLANK_VARIANT);
  if (add === 'variant' && variants.length < MAX_VARIANT_ROWS) variants.push(BLANK_VARIANT);
  return { ...values, tasks, variants };
}

const listOf = (text: string) => text.split(/[\s,]+/).filter(Boolean);

/** The fields holding something that is not a number, by their form name: refused before the schema sees them. */
export function notNumbers(values: NewStudyValues): FieldErrors {
  const fields: Record<string, string> = {
    'targeting-ageRange-min': values.ageMin,
    'targeting-ageRange-max': values.ageMax,
    'targeting-testerCount': values.testerCount,
    'compensation-amount': values.amount,
    'settings-maxDurationMinutes': values.maxDurationMinutes,
    'settings-reminderAfterHours': values.reminderAfterHours,
    // The shares count only with the A/B test on: otherwise the form leaves the variants out.
    ...Object.fromEntries(
      values.abTestEnabled
        ? values.variants.map((row, index) => [variantField(index, 'share'), row.share.trim()])
        : [],
    ),
  };
  return notNumberErrors(fields);
}

/** The body of `POST /api/jobs` the form stands for: blank fields left out, as a JSON client would. */
export function studyInputOf(values: NewStudyValues): Record<string, unknown> {
  const ageGiven = values.ageMin !== '' || values.ageMax !== '';
  const shares = values.variants.filter((row) => row.share.trim() !== '');
  return {
    title: blankless(values.title),
    description: blankless(values.description),
    prototypeUrl: blankless(values.prototypeUrl),
    prototypeType: blankless(values.prototypeType),
    tasks: values.tasks.map((row, index) => ({
      title: blankless(row.title),
      description: blankless(row.description),
      successCriteria: blankless(row.successCriteria),
      order: index + 1,
    })),
    targeting: {
      countries: listOf(values.countries.toUpperCase()),
      ...(ageGiven ? { ageRange: { min: numberOf(values.ageMin), max: numberOf(values.ageMax) } } : {}),
      devices: values.devices,
      ...(listOf(values.languages).length ? { languages: listOf(values.languages) } : {}),
      testerCount: numberOf(values.testerCount),
    },
    ...(values.abTestEnabled
      ? {
          abTest: {
            enabled: true,
            variants: values.variants.map((row) => ({
              label: blankless(row.label),
              description: row.description,
            })),
            ...(shares.length
              ? {
                  splitRatio: Object.fromEntries(
                    // Keyed as the schema reads the labels: trimmed.
                    shares.map((row) => [row.label.trim(), numberOf(row.share.trim())]),
                  ),
                }
              : {}),
          },
        }
      : {}),
    compensation: {
      currency: blankless(values.currency.toUpperCase()),
      amount: numberOf(values.amount),
      type: 'flat',
    },
    settings: {
      ...Object.fromEntries(SETTING_SWITCHES.map((name) => [name, values.switches.includes(name)])),
      maxDurationMinutes: numberOf(values.maxDurationMinutes),
      reminderAfterHours: numberOf(values.reminderAfterHours),
    },
    toneProfile: blankless(values.toneProfile),
  };
}

/**
 * Where the schema's problem with `path` (the API's `tasks[0].title`) is shown on the form, whose
 * names are the API's paths with hyphens for dots (qs would read dots and brackets as nesting): the
 * field that holds it, the list's field for one item of a list typed as text, the variants'
 * fieldset for the split as a whole; `form` when the form has no such field.
 */
export function fieldOfPath(path: string, values: NewStudyValues, fields: ReadonlySet<string>): string {
  const task = /^tasks\[(\d+)\]\.(title|description|successCriteria)$/.exec(path);
  if (task) return taskField(Number(task[1]), task[2] as (typeof TASK_FIELDS)[number]);
  if (/^tasks\[\d+\]/.test(path)) return 'tasks';
  const variant = /^abTest\.variants\[(\d+)\]\.(label|description)$/.exec(path);
  if (variant) return variantField(Number(variant[1]), variant[2] as 'label' | 'description');
  const share = /^abTest\.splitRatio\.(.*)$/.exec(path);
  if (share) {
    const row = values.variants.findIndex((item) => item.label.trim() === share[1]);
    return row >= 0 ? variantField(row, 'share') : 'abTest-variants';
  }
  if (path === 'abTest.splitRatio' || path.startsWith('abTest.variants')) return 'abTest-variants';
  if (path === 'targeting.ageRange') return 'targeting-ageRange-min';
  const field = path.replace(/\[\d+\]$/, '').replace(/\./g, '-');
  return fields.has(field) ? field : 'form';
}
