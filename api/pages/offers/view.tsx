import type { TesterOffer } from '../../../db/repositories/offers.ts';
import { OFFER_OUTCOME_TEXT, type OfferAnswer, type OfferOutcome } from '../../../lib/offers.ts';
import { DASHBOARD_PATH, offerAnswerPath, offerLinkPath, sessionStartAfterAcceptPath } from '../paths.ts';
import { CsrfField, day, dayAndTime, Layout, type Viewer } from '../shared/layout.tsx';

/** Open and still before its end: the clock decides even before the offer's expiry timer fires. */
const isAnswerable = (offer: TesterOffer, now: Date) =>
  offer.offer_status === 'open' && offer.offer_expires_at !== null && offer.offer_expires_at > now;

function OfferState({
  csrf,
  offer,
  now,
  title,
}: {
  csrf: string;
  offer: TesterOffer;
  now: Date;
  title: string;
}) {
  if (isAnswerable(offer, now)) {
    return (
      <>
        <p>Open until {dayAndTime(offer.offer_expires_at!)}.</p>
        <div class="actions">
          <form method="post" action={offerAnswerPath(offer.id)}>
            <CsrfField token={csrf} />
            <input type="hidden" name="answer" value="accept" />
            <button type="submit">
              Accept<span class="visually-hidden">{` ${title}`}</span>
            </button>
          </form>
          <form method="post" action={offerAnswerPath(offer.id)}>
            <CsrfField token={csrf} />
            <input type="hidden" name="answer" value="decline" />
            <button type="submit" class="secondary">
              Decline<span class="visually-hidden">{` ${title}`}</span>
            </button>
          </form>
        </div>
      </>
    );
  }
  switch (offer.offer_status) {
    case 'accepted':
      return (
        <p>
          You accepted it{offer.answered_at ? <> on {dayAndTime(offer.answered_at)}</> : null}. The session is
          on <a href={DASHBOARD_PATH}>your dashboard</a>; your test token came by chat or email.
        </p>
      );
    case 'declined':
      return <p>You declined it{offer.answered_at ? <> on {dayAndTime(offer.answered_at)}</> : null}.</p>;
    case 'withdrawn':
      return <p>Withdrawn: the study no longer takes testers.</p>;
    default:
      return (
        <p>
          Expired{offer.offer_expires_at ? <> on {dayAndTime(offer.offer_expires_at)}</> : null}: it was not
          answered in time.
        </p>
      );
  }
}

export interface OffersPageProps {
  readonly csrf: string;
  readonly viewer: Viewer;
  readonly offers: readonly TesterOffer[];
  readonly now: Date;
  readonly notice?: string | undefined;
}

/** `/offers`: the study offers sent to the tester, the open ones to accept or decline. */
export function OffersPage({ csrf, viewer, offers, now, notice }: OffersPageProps) {
  const open = offers.filter((offer) => isAnswerable(offer, now));
  return (
    <Layout title="Your offers" viewer={viewer} csrf={csrf} notice={notice}>
      <p>
        {open.length
          ? `${open.length} offer${open.length === 1 ? '' : 's'} waiting for your answer. Accepting one gives you its session and a test token.`
          : 'No offer waits for your answer. Offers reach you by chat or email, and are listed here.'}
      </p>
      {offers.map((offer, index) => {
        const title = offer.subject ?? `Offer ${index + 1}`;
        return (
          <section class="panel" aria-labelledby={`offer-${offer.id}`} key={offer.id}>
            <h2 id={`offer-${offer.id}`}>{title}</h2>
            <p class="hint">
              Sent {offer.sent_at ? day(offer.sent_at) : 'not yet'} by{' '}
              {offer.channel === 'email' ? 'email' : 'chat'}
            </p>
            {offer.body.split(/\n{2,}/).map((paragraph, line) => (
              <p key={line}>{paragraph}</p>
            ))}
            <OfferState csrf={csrf} offer={offer} now={now} title={title} />
          </section>
        );
      })}
    </Layout>
  );
}

const VERB: Readonly<Record<OfferAnswer, string>> = { accept: 'Accept', decline: 'Decline' };

// The pages of an offer email's links are signed by the link itself: no sign-in, no account header.

/** `/offers/:id?answer=&signature=`: opening the link only asks to confirm (mail scanners follow links). */
export function OfferLinkPage({
  offerId,
  answer,
  signature,
}: {
  offerId: string;
  answer: OfferAnswer;
  signature: string;
}) {
  const action = `${offerLinkPath(offerId)}?answer=${answer}&signature=${encodeURIComponent(signature)}`;
  return (
    <Layout title={`${VERB[answer]} the study offer`}>
      <p>{`Press the button to ${answer} the offer.`}</p>
      <form method="post" action={action}>
        <button type="submit">{`${VERB[answer]} the offer`}</button>
      </form>
    </Layout>
  );
}

/** What the link's button did, or what had become of the offer before. */
export function OfferLinkAnsweredPage({
  outcome,
  sessionId,
}: {
  outcome: OfferOutcome;
  sessionId?: string | undefined;
}) {
  const title = outcome === 'accepted' || outcome === 'declined' ? 'Thank you' : 'Nothing changed';
  return (
    <Layout title={title}>
      <p role="status">{OFFER_OUTCOME_TEXT[outcome]}</p>
      {sessionId ? (
        <p>
          <a href={sessionStartAfterAcceptPath(sessionId)}>Start your session</a>: after signing in, one
          button hands it to the session recorder in this browser.
        </p>
      ) : null}
    </Layout>
  );
}
