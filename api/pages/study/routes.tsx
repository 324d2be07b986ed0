import { startCheckout } from '../../../commands/billing/checkout.ts';
import {
  approveOutreach,
  editOutreach,
  rejectOutreach,
} from '../../../commands/outreach/outreach-commands.ts';
import { editOutreachBody, rejectOutreachBody } from '../../../commands/outreach/outreach.schema.ts';
import { approveProposal, rejectProposal } from '../../../commands/outreach/proposal-commands.ts';
import { rejectProposalBody } from '../../../commands/outreach/proposal.schema.ts';
import { notFound } from '../../../lib/errors.ts';
import type { RequestState } from '../../http/state.ts';
import { rateSession } from '../../../commands/sessions/business-rating.ts';
import { businessRatingBody } from '../../../commands/sessions/session.schema.ts';
import {
  outreachActionPath,
  proposalActionPath,
  sessionRatingPath,
  studyCheckoutPath,
  studyPath,
} from '../paths.ts';
import type { FieldErrors } from '../shared/form-fields.tsx';
import { commandErrors, parseForm, withoutBlanks } from '../shared/form-input.ts';
import type { PageRouter, SignedInRequest } from '../shared/page-routes.ts';
import { renderPage, seeOther } from '../shared/render.ts';
import {
  bodyField,
  commentField,
  itemParams,
  ratingField,
  reasonField,
  storedText,
  studyOf,
  studyOfItem,
  studyParams,
  subjectField,
  type StudyItem,
  type StudyPageData,
} from './data.ts';
import { StudyPage, type StudyPageProps } from './view.tsx';
import type { CommandContext } from '../../../commands/context.ts';

/** What the page says after each action (`?done=`), so a reload repeats nothing. */
const DONE: Readonly<Record<string, string>> = {
  created: 'Study created as a draft. Pay for it by checkout below to start recruiting.',
  'proposal-approved': 'Proposal approved: its offer message is drafted and waits for review below.',
  'proposal-skipped': 'Proposal skipped: matching proposes the next tester for the place.',
  'outreach-edited': 'Message saved. It still needs an approval before it is sent.',
  'outreach-approved': 'Message approved: the offer is sent to the tester now.',
  'outreach-rejected': 'Message rejected: it is never sent, and matching fills the place again.',
  'session-rated': "Rating saved. It counts towards the tester's points and standing.",
};

type ItemAction = (request: SignedInRequest, itemId: string) => Promise<FieldErrors | undefined>;

/**
 * The business's page of one study (`/dashboard/jobs/:id`, where checkout returns): recruitment
 * progress, proposals to approve or skip, and the outreach queue to edit, approve or reject, each
 * through the command of its REST route. An action answers 303 back to the page with what it did;
 * a refusal (a form error, 409 when someone else decided first) shows the page again with it.
 */
export function mountStudyPages(pages: PageRouter, deps: CommandContext): void {
  /** The page, whose checkout form leads on to the provider's page (allowed by its CSP). */
  const show = (
    request: SignedInRequest,
    data: StudyPageData,
    shown: Pick<StudyPageProps, 'notice' | 'errors' | 'values'>,
    status = 200,
  ) =>
    renderPage(
      request.ctx,
      <StudyPage csrf={request.csrf} viewer={request.viewer} data={data} {...shown} />,
      status,
      // Its findings' replays are framed pages of this site.
      {
        formOrigins: [deps.payments.checkoutOrigin],
        framesSelf: data.moments.length > 0,
      },
    );

  pages.signedIn('GET', studyPath(':id'), async (request) => {
    const data = await studyOf(deps.db, request);
    const done = request.ctx.query.done;
    const notice =
      typeof done === 'string' && Object.hasOwn(DONE, done)
        ? DONE[done]
        : checkoutNotice(request.ctx.query.checkout);
    show(request, data, { notice });
  });

  pages.signedIn(
    'POST',
    studyCheckoutPath(':id'),
    async (request) => {
      const params = studyParams.safeParse(request.ctx.params);
      // Paying is the organization's act: the API takes checkout from business accounts only.
      if (!params.success || request.viewer.role !== 'business') throw notFound('Study');
      try {
        const { checkoutUrl } = await startCheckout(deps, request.principal, params.data.id);
        return seeOther(request.ctx, checkoutUrl);
      } catch (error) {
        const { errors, status } = commandErrors(error, []);
        show(request, await studyOf(deps.db, request), { errors }, status);
      }
    },
    (ctx) => studyPath(String((ctx.params as Record<string, string>).id)),
  );

  /** An action on one proposal or message of the study: 404 unless the study is the caller's. */
  const action = (item: StudyItem, path: string, done: string, act: ItemAction) =>
    pages.signedIn(
      'POST',
      path,
      async (request) => {
        const params = itemParams.safeParse(request.ctx.params);
        if (!params.success || request.viewer.role === 'tester') throw notFound('Study');
        const { id: studyId, itemId } = params.data;
        // One query both ways: the caller sees the item (row-level security), and it is this study's.
        if ((await studyOfItem(deps.db, request.principal, item, itemId)) !== studyId)
          throw notFound('Study');
        let errors: FieldErrors | undefined;
        let status = 422;
        try {
          errors = await act(request, itemId);
        } catch (error) {
          ({ errors, status } = commandErrors(error, []));
        }
        if (!errors) return seeOther(request.ctx, `${studyPath(studyId)}?done=${done}`);
        // Shown again from the database: what changed meanwhile is on the page with the refusal.
        show(request, await studyOf(deps.db, request), { errors, values: request.form }, status);
      },
      // A session that ended before the post: after signing in, back to the study's page.
      (ctx) => studyPath(String((ctx.params as Record<string, string>).id)),
    );

  action(
    'proposal',
    proposalActionPath(':id', ':itemId', 'approve'),
    'proposal-approved',
    async (request, id) => {
      await approveProposal(deps, request.principal, id);
      return undefined;
    },
  );
  action(
    'proposal',
    proposalActionPath(':id', ':itemId', 'skip'),
    'proposal-skipped',
    async (request, id) => {
      const parsed = parseForm(rejectProposalBody, withoutBlanks({ reason: request.form[reasonField(id)] }));
      if ('errors' in parsed) return { [reasonField(id)]: parsed.errors.reason ?? 'Not valid' };
      await rejectProposal(deps, request.principal, id, parsed.data.reason);
      return undefined;
    },
  );
  /** Saves the message's posted text when it differs from the stored one; field errors when refused. */
  async function saveIfChanged(request: SignedInRequest, id: string): Promise<FieldErrors | undefined> {
    if (request.form[bodyField(id)] === undefined) return undefined;
    const input = {
      body: request.form[bodyField(id)],
      ...withoutBlanks({ subject: request.form[subjectField(id)] }),
    };
    const fieldOf = (errors: FieldErrors) => ({
      ...(errors.body ? { [bodyField(id)]: errors.body } : {}),
      ...(errors.subject ? { [subjectField(id)]: errors.subject } : {}),
    });
    const parsed = parseForm(editOutreachBody, input);
    if ('errors' in parsed) return fieldOf(parsed.errors);
    const stored = await storedText(deps.db, request.principal, id);
    if (
      stored &&
      stored.body === parsed.data.body &&
      (parsed.data.subject ?? stored.subject) === stored.subject
    ) {
      return undefined;
    }
    try {
      await editOutreach(deps, request.principal, id, parsed.data);
    } catch (error) {
      // A subject on a chat message is the one rule the schema alone cannot see.
      const refused = commandErrors(error, ['subject', 'body']);
      if (refused.status !== 422 || refused.errors.form) throw error;
      return fieldOf(refused.errors);
    }
    return undefined;
  }

  action('outreach', outreachActionPath(':id', ':itemId', 'edit'), 'outreach-edited', async (request, id) => {
    if (request.form[bodyField(id)] === undefined) return { [bodyField(id)]: 'Must not be empty' };
    return saveIfChanged(request, id);
  });
  action(
    'outreach',
    outreachActionPath(':id', ':itemId', 'approve'),
    'outreach-approved',
    async (request, id) => {
      // The approve button belongs to the form that shows the text: a changed text is saved first.
      const changed = await saveIfChanged(request, id);
      if (changed) return changed;
      await approveOutreach(deps, request.principal, id);
      return undefined;
    },
  );
  action('session', sessionRatingPath(':id', ':itemId'), 'session-rated', async (request, id) => {
    // The organization's own judgement: the API takes it from business accounts only.
    if (request.viewer.role !== 'business') throw notFound('Study');
    const rating = request.form[ratingField(id)]?.trim();
    const input = {
      ...(rating ? { rating: /^\d{1,2}$/.test(rating) ? Number(rating) : rating } : {}),
      ...withoutBlanks({ comment: request.form[commentField(id)] }),
    };
    const parsed = parseForm(businessRatingBody, input);
    if ('errors' in parsed) {
      const { rating: ratingError, comment } = parsed.errors;
      return {
        ...(ratingError ? { [ratingField(id)]: ratingError } : {}),
        ...(comment ? { [commentField(id)]: comment } : {}),
      };
    }
    await rateSession(deps, request.principal, id, parsed.data, (request.ctx.state as RequestState).log);
    return undefined;
  });
  action(
    'outreach',
    outreachActionPath(':id', ':itemId', 'reject'),
    'outreach-rejected',
    async (request, id) => {
      const parsed = parseForm(rejectOutreachBody, withoutBlanks({ reason: request.form[reasonField(id)] }));
      if ('errors' in parsed) return { [reasonField(id)]: parsed.errors.reason ?? 'Not valid' };
      await rejectOutreach(
        deps,
        request.principal,
        id,
        parsed.data.reason,
        (request.ctx.state as RequestState).log,
      );
      return undefined;
    },
  );
}

function checkoutNotice(outcome: unknown): string | undefined {
  if (outcome === 'success')
    return 'Payment received. The study becomes active as soon as the payment provider confirms it.';
  if (outcome === 'cancelled') return 'The checkout was cancelled: nothing was paid.';
  return undefined;
}
