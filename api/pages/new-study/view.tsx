import { DASHBOARD_PATH, NEW_STUDY_PATH } from '../paths.ts';
import {
  CheckboxGroup,
  ErrorSummary,
  FieldGroup,
  RadioGroup,
  TextArea,
  TextField,
  type FieldErrors,
} from '../shared/form-fields.tsx';
import { CsrfField, Layout, type Viewer } from '../shared/layout.tsx';
import { MAX_TASK_ROWS, MAX_VARIANT_ROWS, taskField, variantField, type NewStudyValues } from './data.ts';

const STATIC_LABELS: Readonly<Record<string, string>> = {
  title: 'Title',
  description: 'Description',
  prototypeUrl: 'Prototype address',
  prototypeType: 'Kind of prototype',
  tasks: 'Tasks',
  'targeting-countries': 'Countries',
  'targeting-ageRange-min': 'Youngest age',
  'targeting-ageRange-max': 'Oldest age',
  'targeting-devices': 'Devices',
  'targeting-languages': 'Languages',
  'targeting-testerCount': 'Number of testers',
  'compensation-currency': 'Currency',
  'compensation-amount': 'Payment per tester',
  'settings-maxDurationMinutes': 'Longest session, in minutes',
  'settings-reminderAfterHours': 'Reminder after, in hours',
  toneProfile: 'Tone of the reports',
  'abTest-variants': 'Variants',
};

/** Every field's label by its form name, the rows' fields included: the error summary names them. */
export function studyFormLabels(values: NewStudyValues): Readonly<Record<string, string>> {
  const labels: Record<string, string> = { ...STATIC_LABELS };
  values.tasks.forEach((_, row) => {
    labels[taskField(row, 'title')] = `Task ${row + 1} title`;
    labels[taskField(row, 'description')] = `Task ${row + 1} instructions`;
    labels[taskField(row, 'successCriteria')] = `Task ${row + 1} success criteria`;
  });
  values.variants.forEach((_, row) => {
    labels[variantField(row, 'label')] = `Variant ${row + 1} label`;
    labels[variantField(row, 'description')] = `Variant ${row + 1} description`;
    labels[variantField(row, 'share')] = `Variant ${row + 1} share`;
  });
  return labels;
}

const PROTOTYPE_TYPES = [
  { value: 'url', label: 'A web page or site, at its address' },
  { value: 'design_tool_1', label: 'A prototype in design tool 1' },
  { value: 'design_tool_2', label: 'A prototype in design tool 2' },
  { value: 'design_tool_3', label: 'A prototype in design tool 3' },
];
const DEVICES = [
  { value: 'desktop', label: 'Desktop' },
  { value: 'mobile', label: 'Mobile' },
  { value: 'tablet', label: 'Tablet' },
];
const SWITCHES = [
  { value: 'requireThinkAloud', label: 'Ask testers to think aloud' },
  { value: 'recordScreen', label: 'Record the screen' },
  { value: 'recordFacial', label: 'Record facial expression scores (computed on the tester’s machine)' },
  { value: 'recordVoice', label: 'Record voice transcripts (computed on the tester’s machine)' },
];
const TONES = [
  { value: 'standard', label: 'Standard: direct, neutral technical language' },
  { value: 'supportive', label: 'Supportive: encouraging framing' },
  { value: 'moderate', label: 'Moderate: between the two, the general-purpose default' },
  { value: 'restorative', label: 'Restorative: trauma-informed language for sensitive groups' },
];

function TaskRows({ values, errors }: { values: NewStudyValues; errors: FieldErrors }) {
  return (
    <FieldGroup
      name="tasks"
      legend="Tasks"
      hint="What each tester is asked to do, in order. Fill in the rows you need; empty rows are left out."
      error={errors.tasks}
    >
      {values.tasks.map((task, row) => (
        <div class="panel" key={row}>
          <h3>{`Task ${row + 1}`}</h3>
          <TextField
            name={taskField(row, 'title')}
            label={`Task ${row + 1} title`}
            value={task.title}
            error={errors[taskField(row, 'title')]}
            maxLength={200}
          />
          <TextArea
            name={taskField(row, 'description')}
            label={`Task ${row + 1} instructions`}
            value={task.description}
            error={errors[taskField(row, 'description')]}
            maxLength={5000}
          />
          <TextField
            name={taskField(row, 'successCriteria')}
            label={`Task ${row + 1} success criteria`}
            value={task.successCriteria}
            error={errors[taskField(row, 'successCriteria')]}
            hint="Optional: how you know the task was done."
            maxLength={5000}
          />
        </div>
      ))}
      {values.tasks.length < MAX_TASK_ROWS ? (
        <button type="submit" name="add" value="task" class="secondary">
          Add another task
        </button>
      ) : null}
    </FieldGroup>
  );
}

function VariantRows({ values, errors }: { values: NewStudyValues; errors: FieldErrors }) {
  return (
    <FieldGroup
      name="abTest-variants"
      legend="Variants"
      hint="Used when the A/B test is on: each tester tries one variant. Shares are proportions that sum to 1 (0.5 and 0.5); leave them all empty for equal shares."
      error={errors['abTest-variants']}
    >
      {values.variants.map((variant, row) => (
        <div class="panel" key={row}>
          <h3>{`Variant ${row + 1}`}</h3>
          <TextField
            name={variantField(row, 'label')}
            label={`Variant ${row + 1} label`}
            value={variant.label}
            error={errors[variantField(row, 'label')]}
            maxLength={50}
          />
          <TextField
            name={variantField(row, 'description')}
            label={`Variant ${row + 1} description`}
            value={variant.description}
            error={errors[variantField(row, 'description')]}
            hint="Optional."
            maxLength={5000}
          />
          <TextField
            name={variantField(row, 'share')}
            label={`Variant ${row + 1} share`}
            value={variant.share}
            error={errors[variantField(row, 'share')]}
            hint="Optional: a proportion above 0 and at most 1."
          />
        </div>
      ))}
      {values.variants.length < MAX_VARIANT_ROWS ? (
        <button type="submit" name="add" value="variant" class="secondary">
          Add another variant
        </button>
      ) : null}
    </FieldGroup>
  );
}

export interface NewStudyPageProps {
  readonly csrf: string;
  readonly viewer: Viewer;
  readonly values: NewStudyValues;
  readonly errors?: FieldErrors;
}

/** `/dashboard/jobs/new`: the create-study form, every field of `POST /api/jobs`. */
export function NewStudyPage({ csrf, viewer, values, errors = {} }: NewStudyPageProps) {
  return (
    <Layout title="Create a study" viewer={viewer} csrf={csrf}>
      <p>
        <a href={DASHBOARD_PATH}>All studies</a>
      </p>
      <ErrorSummary errors={errors} labels={studyFormLabels(values)} />
      <p>The study is saved as a draft. Recruiting starts once it is paid for by checkout on its page.</p>
      <form method="post" action={NEW_STUDY_PATH} novalidate>
        <CsrfField token={csrf} />
        <input type="hidden" name="idempotencyKey" value={values.idempotencyKey} />
        {/* Enter in a field presses a form's first submit button: this one, not "Add another task". */}
        <button type="submit" class="default-submit">
          Create the study
        </button>
        <h2>The study</h2>
        <TextField name="title" label="Title" value={values.title} error={errors.title} maxLength={200} />
        <TextArea
          name="description"
          label="Description"
          value={values.description}
          error={errors.description}
          hint="What the study is about, as testers will read it."
          maxLength={5000}
        />
        <TextField
          name="prototypeUrl"
          label="Prototype address"
          type="url"
          value={values.prototypeUrl}
          error={errors.prototypeUrl}
          hint="An http or https address, as in https://shop.example/checkout."
        />
        <RadioGroup
          name="prototypeType"
          legend="Kind of prototype"
          choices={PROTOTYPE_TYPES}
          value={values.prototypeType}
          error={errors.prototypeType}
        />
        <TaskRows values={values} errors={errors} />

        <h2>Who tests it</h2>
        <TextField
          name="targeting-countries"
          label="Countries"
          value={values.countries}
          error={errors['targeting-countries']}
          hint="Two-letter codes separated by commas, as in GB, DE."
        />
        <TextField
          name="targeting-ageRange-min"
          label="Youngest age"
          type="number"
          value={values.ageMin}
          error={errors['targeting-ageRange-min']}
          hint="Optional, with the oldest age: 13 to 120."
        />
        <TextField
          name="targeting-ageRange-max"
          label="Oldest age"
          type="number"
          value={values.ageMax}
          error={errors['targeting-ageRange-max']}
          hint="Optional, with the youngest age."
        />
        <CheckboxGroup
          name="targeting-devices"
          legend="Devices"
          choices={DEVICES}
          values={values.devices}
          error={errors['targeting-devices']}
        />
        <TextField
          name="targeting-languages"
          label="Languages"
          value={values.languages}
          error={errors['targeting-languages']}
          hint="Language tags separated by commas, as in en, fr-CA; the first is the study's main language."
        />
        <TextField
          name="targeting-testerCount"
          label="Number of testers"
          type="number"
          value={values.testerCount}
          error={errors['targeting-testerCount']}
          min={1}
        />

        <h2>Payment</h2>
        <p>Each tester is paid a flat amount for each confirmed session.</p>
        <TextField
          name="compensation-currency"
          label="Currency"
          value={values.currency}
          error={errors['compensation-currency']}
          hint="Three letters, as in EUR or GBP."
          maxLength={3}
        />
        <TextField
          name="compensation-amount"
          label="Payment per tester"
          value={values.amount}
          error={errors['compensation-amount']}
          hint="At most 2 decimal places, as in 25.50."
        />

        <h2>Sessions and reports</h2>
        <CheckboxGroup
          name="settings"
          legend="What a session records"
          choices={SWITCHES}
          values={values.switches}
        />
        <TextField
          name="settings-maxDurationMinutes"
          label="Longest session, in minutes"
          type="number"
          value={values.maxDurationMinutes}
          error={errors['settings-maxDurationMinutes']}
          hint="1 to 1440."
        />
        <TextField
          name="settings-reminderAfterHours"
          label="Reminder after, in hours"
          type="number"
          value={values.reminderAfterHours}
          error={errors['settings-reminderAfterHours']}
          hint="Optional: remind a tester who has not started after this many hours (1 to 720)."
        />
        <RadioGroup
          name="toneProfile"
          legend="Tone of the reports"
          choices={TONES}
          value={values.toneProfile}
          error={errors.toneProfile}
          hint="It changes wording and framing, not facts, and is fixed once the first report is written."
        />

        <h2>A/B test</h2>
        <CheckboxGroup
          name="abTest-enabled"
          legend="Compare variants"
          choices={[{ value: 'on', label: 'Split the testers between two or more variants' }]}
          values={values.abTestEnabled ? ['on'] : []}
        />
        <VariantRows values={values} errors={errors} />

        <div class="actions">
          <button type="submit">Create the study</button>
        </div>
      </form>
    </Layout>
  );
}
