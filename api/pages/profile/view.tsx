import { ACCESS_NEEDS, ASSISTIVE_TECHNOLOGIES, DEVICES as TESTER_DEVICES } from '../../../lib/domain.ts';
import { PROFILE_PATH, QUIZ_PATH } from '../paths.ts';
import { CheckboxGroup, ErrorSummary, TextField, type FieldErrors } from '../shared/form-fields.tsx';
import { CsrfField, Layout, type Viewer } from '../shared/layout.tsx';
import type { ProfileValues, TesterProfile } from './data.ts';

export const LABELS: Readonly<Record<keyof ProfileValues, string>> = {
  country: 'Country',
  birthYear: 'Year of birth',
  devices: 'Devices you can test on',
  languages: 'Languages you speak',
  assistiveTechnologies: 'Assistive technology you use',
  accessNeeds: 'Access needs',
};

const words = (value: string) => value.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
const choicesOf = (values: readonly string[]) => values.map((value) => ({ value, label: words(value) }));

const STATUS_TEXT: Readonly<Record<TesterProfile['status'], string>> = {
  pending: 'Not yet able to join studies: pass the qualification quiz first.',
  active: 'Active: you can be matched to studies.',
  suspended: 'Suspended: you are not matched to studies.',
};

function Standing({ profile }: { profile: TesterProfile }) {
  return (
    <section aria-labelledby="standing-title">
      <h2 id="standing-title">Your standing</h2>
      <dl class="facts">
        <dt>Status</dt>
        <dd>{STATUS_TEXT[profile.status]}</dd>
        <dt>Quiz</dt>
        <dd>
          {profile.quiz
            ? `${profile.quiz.passed ? 'Passed' : 'Not passed'} with ${profile.quiz.score} %`
            : 'Not taken yet'}
          {profile.quiz?.passed ? null : (
            <>
              {' '}
              <a href={QUIZ_PATH}>Take the quiz</a>
            </>
          )}
        </dd>
        <dt>Points</dt>
        <dd>{profile.points}</dd>
        <dt>Level</dt>
        <dd>{profile.level}</dd>
      </dl>
      <h3>Badges</h3>
      {profile.badges.length ? (
        <ul class="badges">
          {profile.badges.map((badge) => (
            <li key={badge.badgeId}>
              <img src={new URL(badge.iconUrl).pathname} alt="" width={32} height={32} />{' '}
              <strong>{badge.name}</strong>
              {`: ${badge.description}`}
            </li>
          ))}
        </ul>
      ) : (
        <p>No badges yet: they come with the points of confirmed sessions.</p>
      )}
    </section>
  );
}

export interface ProfilePageProps {
  readonly csrf: string;
  readonly viewer: Viewer;
  readonly profile: TesterProfile;
  readonly values: ProfileValues;
  readonly errors?: FieldErrors;
  readonly notice?: string | undefined;
}

/** `/profile`: the tester's own profile (joining: fill it in, then take the quiz), points and badges. */
export function ProfilePage({ csrf, viewer, profile, values, errors = {}, notice }: ProfilePageProps) {
  return (
    <Layout title="Your tester profile" viewer={viewer} csrf={csrf} notice={notice}>
      <ErrorSummary errors={errors} labels={LABELS} />
      <Standing profile={profile} />
      <h2>About you</h2>
      <p>Studies are matched on these. Country and at least one device are needed before the quiz.</p>
      <form method="post" action={PROFILE_PATH} novalidate>
        <CsrfField token={csrf} />
        <TextField
          name="country"
          label={LABELS.country}
          value={values.country}
          error={errors.country}
          hint="Two letters, as in GB or DE."
          autocomplete="country"
          maxLength={2}
        />
        <TextField
          name="birthYear"
          label={LABELS.birthYear}
          type="number"
          value={values.birthYear}
          error={errors.birthYear}
          hint="Optional. Studies may target age ranges."
          autocomplete="bday-year"
        />
        <CheckboxGroup
          name="devices"
          legend={LABELS.devices}
          choices={choicesOf(TESTER_DEVICES)}
          values={values.devices}
          error={errors.devices}
        />
        <TextField
          name="languages"
          label={LABELS.languages}
          value={values.languages}
          error={errors.languages}
          hint="Language tags separated by commas, as in en, fr-CA."
        />
        <CheckboxGroup
          name="assistiveTechnologies"
          legend={LABELS.assistiveTechnologies}
          choices={choicesOf(ASSISTIVE_TECHNOLOGIES)}
          values={values.assistiveTechnologies}
          error={errors.assistiveTechnologies}
          hint="Optional."
        />
        <CheckboxGroup
          name="accessNeeds"
          legend={LABELS.accessNeeds}
          choices={choicesOf(ACCESS_NEEDS)}
          values={values.accessNeeds}
          error={errors.accessNeeds}
          hint="Optional. Studies about your needs look for testers like you."
        />
        <button type="submit">Save my profile</button>
      </form>
    </Layout>
  );
}
