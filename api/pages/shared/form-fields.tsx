import type { ComponentChildren } from 'preact';

/** Messages by field name; `form` holds what belongs to no single field. */
export type FieldErrors = Readonly<Record<string, string>>;

/** The id of a field's control: what its label, error and the error summary point at. */
export const fieldId = (name: string) => `field-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
const errorId = (name: string) => `${fieldId(name)}-error`;
const hintId = (name: string) => `${fieldId(name)}-hint`;

/** The ids a control is described by: its hint and its error, when it has them. */
function describedBy(name: string, hint: unknown, error: string | undefined): string | undefined {
  const ids = [hint ? hintId(name) : '', error ? errorId(name) : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

/** Lists the errors at the top of a form, each a link to its field (focus lands here first). */
export function ErrorSummary({
  errors,
  labels,
}: {
  errors: FieldErrors;
  labels: Readonly<Record<string, string>>;
}) {
  const entries = Object.entries(errors);
  if (!entries.length) return null;
  return (
    // Focus lands here when the page loads, so a screen reader reads the problems first.
    <div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabIndex={-1} autofocus>
      <h2 id="error-summary-title">There is a problem</h2>
      <ul>
        {entries.map(([name, message]) => (
          <li key={name}>
            {name === 'form' ? (
              message
            ) : (
              <a href={`#${fieldId(name)}`}>{`${labels[name] ?? name}: ${message}`}</a>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

function FieldError({ name, error }: { name: string; error: string | undefined }) {
  return error ? (
    <p class="field-error" id={errorId(name)}>
      <span class="visually-hidden">Error: </span>
      {error}
    </p>
  ) : null;
}

function Hint({ name, hint }: { name: string; hint: ComponentChildren }) {
  return hint ? (
    <p class="hint" id={hintId(name)}>
      {hint}
    </p>
  ) : null;
}

export interface TextFieldProps {
  readonly name: string;
  readonly label: string;
  readonly value?: string | undefined;
  readonly error?: string | undefined;
  readonly hint?: ComponentChildren;
  readonly type?: 'text' | 'email' | 'password' | 'number' | 'url' | 'date';
  readonly required?: boolean;
  readonly autocomplete?: string;
  readonly min?: number;
  readonly max?: number;
  readonly maxLength?: number;
}

export function TextField(props: TextFieldProps) {
  const { name, label, value, error, hint, type = 'text', required, autocomplete } = props;
  return (
    <div class={error ? 'field field-invalid' : 'field'}>
      <label for={fieldId(name)}>{label}</label>
      <Hint name={name} hint={hint} />
      <FieldError name={name} error={error} />
      <input
        id={fieldId(name)}
        name={name}
        type={type}
        value={type === 'password' ? '' : (value ?? '')}
        required={required}
        autocomplete={autocomplete}
        min={props.min}
        max={props.max}
        maxLength={props.maxLength}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy(name, hint, error)}
      />
    </div>
  );
}

export function TextArea(props: Omit<TextFieldProps, 'type' | 'autocomplete' | 'min' | 'max'>) {
  const { name, label, value, error, hint, required } = props;
  return (
    <div class={error ? 'field field-invalid' : 'field'}>
      <label for={fieldId(name)}>{label}</label>
      <Hint name={name} hint={hint} />
      <FieldError name={name} error={error} />
      <textarea
        id={fieldId(name)}
        name={name}
        rows={4}
        required={required}
        maxLength={props.maxLength}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy(name, hint, error)}
      >
        {value ?? ''}
      </textarea>
    </div>
  );
}

export interface Choice {
  readonly value: string;
  readonly label: string;
}

interface ChoiceGroupProps {
  readonly name: string;
  readonly legend: ComponentChildren;
  readonly choices: readonly Choice[];
  readonly error?: string | undefined;
  readonly hint?: ComponentChildren;
}

/**
 * A fieldset that answers for a group of fields as one (the rows of a list, a choice): its legend,
 * its hint, and its error, which the error summary's link brings focus to.
 */
export function FieldGroup(props: {
  readonly name: string;
  readonly legend: ComponentChildren;
  readonly hint?: ComponentChildren;
  readonly error?: string | undefined;
  readonly children: ComponentChildren;
}) {
  const { name, legend, hint, error, children } = props;
  return (
    <fieldset
      class={error ? 'field field-invalid' : 'field'}
      id={fieldId(name)}
      tabIndex={error ? -1 : undefined}
      aria-describedby={describedBy(name, hint, error)}
    >
      <legend>{legend}</legend>
      <Hint name={name} hint={hint} />
      <FieldError name={name} error={error} />
      {children}
    </fieldset>
  );
}

/** Choices in a fieldset whose legend is the question: one radio group, or checkboxes sent under one name. */
function ChoiceGroup(
  props: ChoiceGroupProps & {
    type: 'radio' | 'checkbox';
    checked: (value: string) => boolean;
    required?: boolean;
  },
) {
  const { name, legend, choices, error, hint, type, checked, required } = props;
  return (
    <FieldGroup name={name} legend={legend} hint={hint} error={error}>
      <div class="choices">
        {choices.map((choice) => (
          <div class="choice" key={choice.value}>
            <input
              type={type}
              id={`${fieldId(name)}-${choice.value}`}
              name={name}
              value={choice.value}
              checked={checked(choice.value)}
              required={required}
            />
            <label for={`${fieldId(name)}-${choice.value}`}>{choice.label}</label>
          </div>
        ))}
      </div>
    </FieldGroup>
  );
}

export function RadioGroup(props: ChoiceGroupProps & { value?: string | undefined; required?: boolean }) {
  return <ChoiceGroup {...props} type="radio" checked={(value) => value === props.value} />;
}

export function CheckboxGroup(props: ChoiceGroupProps & { values: readonly string[] }) {
  return <ChoiceGroup {...props} type="checkbox" checked={(value) => props.values.includes(value)} />;
}
