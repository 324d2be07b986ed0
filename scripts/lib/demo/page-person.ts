import { SEED_PASSWORD } from '../../../db/seed/seed-data.ts';
import { DemoBrowser, type PageAnswer } from './demo-http.ts';
import type { PrintedLines } from './printed-lines.ts';

/** A page as a person sees it at a moment worth a screenshot, with the cookies that open it. */
export interface PageMoment {
  readonly name: 'outreach-queue' | 'review-page';
  readonly path: string;
  readonly cookies: ReadonlyMap<string, string>;
}

const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;

function expect(answer: PageAnswer, status: number, what: string): PageAnswer {
  if (answer.status !== status) throw new Error(`${what} answered ${answer.status}, expected ${status}`);
  return answer;
}

/**
 * The people of `npm run demo -- --by-hand`, done by a program: it reads what the demo prints and
 * does each human step with the pages' own forms (sign in, pay by checkout, approve the proposal
 * and the message, accept by the emailed link, review the findings), as a person in a browser
 * would. `moment` sees the outreach queue and the review page before they are acted on.
 */
export async function actAsPeople(
  baseUrl: string,
  printed: PrintedLines,
  moment: (at: PageMoment) => Promise<void> = async () => {},
): Promise<void> {
  const signIn = async (email: string) => {
    const browser = new DemoBrowser(baseUrl);
    await browser.get('/login');
    expect(await browser.post('/login', { email, password: SEED_PASSWORD }), 303, `Signing in as ${email}`);
    return browser;
  };

  // The business pays on its study page, through the provider's checkout page.
  const business = await signIn((await printed.match(/(demo-business-\w+@demo\.example)/))[1]!);
  const study = new URL((await printed.match(/Study page: +(\S+)/))[1]!).pathname;
  await printed.match(/By hand: sign in as .* "Pay by checkout"/);
  await business.get(study);
  const checkout = expect(await business.post(`${study}/checkout`, {}), 303, 'Pay by checkout');
  const provider = pathOf(checkout.location!);
  await business.get(provider);
  expect(await business.post(provider, {}), 303, 'Pay');

  // It approves the proposal of the tester the demo names, then reads and approves the message.
  const tester = (await printed.match(/By hand: approve the proposal of tester (\w{8})/))[1]!;
  let page = await business.get(study);
  for (let attempt = 0; !page.html.includes(`tester ${tester}`); attempt += 1) {
    if (attempt > 120) throw new Error(`No proposal of tester ${tester} on the study page`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    page = await business.get(study);
  }
  const proposal = page.html.slice(page.html.indexOf(`tester ${tester}`));
  const approve = new RegExp(`action="(${study}/proposals/[0-9a-f-]{36}/approve)"`).exec(proposal)![1]!;
  expect(await business.post(approve, {}), 303, 'Approve and draft the offer');
  await printed.match(/By hand: press "Approve and send"/);
  await moment({ name: 'outreach-queue', path: `${study}#outreach`, cookies: business.cookies });
  page = await business.get(study);
  const send = new RegExp(`action="(${study}/outreach/[0-9a-f-]{36}/approve)"`).exec(page.html)![1]!;
  expect(await business.post(send, {}), 303, 'Approve and send');

  // The tester opens the emailed accept link and presses its button (no sign-in: the link is signed).
  const accept = pathOf((await printed.match(/Accept link \(from the email\): (\S+)/))[1]!);
  await printed.match(/By hand: open the accept link/);
  const offer = new DemoBrowser(baseUrl);
  expect(await offer.get(accept), 200, 'The offer link');
  expect(await offer.post(accept, {}), 200, 'Accept');

  // The tester signs in, reads each finding and sends the review: the gate.
  const email = (await printed.match(/By hand: sign in as (demo-tester-\w+@demo\.example)/))[1]!;
  const review = pathOf((await printed.match(/Review page: +(\S+)/))[1]!);
  const reviewer = await signIn(email);
  await moment({ name: 'review-page', path: review, cookies: reviewer.cookies });
  const form = await reviewer.get(review);
  const notes = new Set(
    [...form.html.matchAll(/name="decision-([0-9a-f-]{36})"/g)].map((match) => match[1]!),
  );
  if (!notes.size) throw new Error('The review page lists no finding');
  const fields: Record<string, string> = { rating: '5', comment: 'Reviewed by hand.' };
  for (const note of notes) fields[`decision-${note}`] = 'confirmed';
  expect(await reviewer.post(review, fields), 303, 'Send the review');
}
