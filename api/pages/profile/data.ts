import type { TesterProfile } from '../../../commands/testers/tester-profile.ts';
import { formList } from '../shared/form-input.ts';
import type { SignedInRequest } from '../shared/page-routes.ts';

export type { TesterProfile };

/** What the form shows: the profile as stored, or what was just posted. */
export interface ProfileValues {
  readonly country: string;
  readonly birthYear: string;
  readonly devices: readonly string[];
  readonly languages: string;
  readonly assistiveTechnologies: readonly string[];
  readonly accessNeeds: readonly string[];
}

/** The profile as stored, as the form shows it. */
export function valuesOf(profile: TesterProfile): ProfileValues {
  return {
    country: profile.country ?? '',
    birthYear: profile.birthYear === null ? '' : String(profile.birthYear),
    devices: profile.devices,
    languages: profile.languages.join(', '),
    assistiveTechnologies: profile.assistiveTechnologies,
    accessNeeds: profile.accessNeeds,
  };
}

/** What was posted, as the form shows it again. */
export function postedValues(request: SignedInRequest): ProfileValues {
  const { form, ctx } = request;
  return {
    country: (form.country ?? '').trim(),
    birthYear: (form.birthYear ?? '').trim(),
    devices: formList(ctx, 'devices'),
    languages: form.languages ?? '',
    assistiveTechnologies: formList(ctx, 'assistiveTechnologies'),
    accessNeeds: formList(ctx, 'accessNeeds'),
  };
}

/** The form as `PATCH /api/testers/me` takes it: every field given, an empty year clearing it. */
export function profileInput(values: ProfileValues) {
  const year = values.birthYear;
  return {
    ...(values.country ? { country: values.country.toUpperCase() } : {}),
    birthYear: year === '' ? null : /^\d{1,4}$/.test(year) ? Number(year) : year,
    devices: values.devices,
    languages: values.languages.split(/[\s,]+/).filter(Boolean),
    assistiveTechnologies: values.assistiveTechnologies,
    accessNeeds: values.accessNeeds,
  };
}
