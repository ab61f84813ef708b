// The test-mode provider's hosted pages, one accessible HTML document each (like the development
// mailbox, server/notify/mailbox-page.ts): plainly marked as test mode, plain forms posting back to
// routes.ts, no script. Texts come from server/notify/locales (testPayments.*).
import { escapeHtml as e } from '../../notify/render.ts';
import { createTranslator, type Translator } from '../../notify/texts.ts';
import { currencySymbol, type Tax } from '../../../common/payments.ts';
import type { Offer } from '../catalog.ts';
import { TEST_CARDS, TEST_PROVIDER_PREFIX, type TestSession, type TestSubscription } from './provider.ts';

export const TEST_PAGES_CSS = `:root { color-scheme: light; }
body { margin: 0; font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: #1f2937; background: #f3f4f6; }
main { max-width: 560px; margin: 0 auto; padding: 16px; }
.badge { display: inline-block; background: #7c2d12; color: #ffffff; font-weight: 700; padding: 2px 10px; border-radius: 999px; }
.notice { background: #fff7ed; border: 2px dashed #7c2d12; padding: 12px; border-radius: 8px; }
h1 { font-size: 1.6rem; margin: 12px 0; }
h2 { font-size: 1.15rem; margin: 16px 0 8px; }
section, form { background: #ffffff; border: 1px solid #d1d5db; border-radius: 8px; padding: 16px; margin: 0 0 16px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 12px; margin: 0; }
dt { font-weight: 600; }
dd { margin: 0; overflow-wrap: anywhere; }
label { display: block; font-weight: 600; margin: 0 0 4px; }
input, select { font: inherit; padding: 8px; border: 1px solid #6b7280; border-radius: 4px; width: 100%; box-sizing: border-box; }
.actions { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 12px; }
button { font: inherit; padding: 8px 16px; border: 0; border-radius: 4px; background: #1f42dd; color: #ffffff; cursor: pointer; }
button.secondary { background: #ffffff; color: #1f42dd; border: 1px solid #1f42dd; }
a { color: #1d4ed8; }
:focus-visible { outline: 3px solid #1f42dd; outline-offset: 2px; }
.error { background: #fef2f2; border: 1px solid #b91c1c; color: #7f1d1d; padding: 12px; border-radius: 4px; }
.success { background: #f0fdf4; border: 1px solid #15803d; color: #14532d; padding: 12px; border-radius: 4px; }
ul { margin: 0; padding-left: 20px; }
code { overflow-wrap: anywhere; }
`;

let english: Translator | undefined;
/** English texts, made at the first page rather than at the server's start (an i18next instance and a number format). */
const t: Translator['t'] = (key, values) => (english ??= createTranslator('en')).t(key, values);

export function formatPrice(price: { amount: number; currency: string; recurrenceInterval: string }): string {
  return `${currencySymbol(price.currency)}${price.amount} / ${t(`testPayments.abbreviations.${price.recurrenceInterval}`)}`;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)} · ${e(t('testPayments.badge'))}</title>
<link rel="stylesheet" href="${TEST_PROVIDER_PREFIX}/pages.css">
</head>
<body>
<main>
<p><span class="badge">${e(t('testPayments.badge'))}</span></p>
<p class="notice">${e(t('testPayments.notice'))}</p>
<h1>${e(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

const message = (kind: 'error' | 'success', text: string | undefined) =>
  text ? `<p class="${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${e(text)}</p>` : '';

function offerSummary(session: TestSession, planName: string, taxes: Tax[]): string {
  const price = { amount: session.amount ?? 0, currency: session.currency ?? '', recurrenceInterval: session.recurrenceInterval ?? '' };
  const taxList = taxes.length
    ? `<dt>${e(t('testPayments.taxes'))}</dt><dd><ul>${taxes.map((tax) => `<li>${e(t('testPayments.tax', { ...tax, percentage: String(tax.percentage) }))}</li>`).join('')}</ul></dd>`
    : '';
  const trial =
    session.trialDays > 0
      ? `<dt>${e(t('testPayments.trial'))}</dt><dd>${e(t('testPayments.trialDays', { count: session.trialDays }))}</dd>`
      : '';
  return `<section aria-labelledby="offer-heading">
<h2 id="offer-heading">${e(planName)}</h2>
<dl>
<dt>${e(t('testPayments.plan'))}</dt><dd>${e(planName)}</dd>
<dt>${e(t('testPayments.price'))}</dt><dd>${e(formatPrice(price))}</dd>
${trial}
${taxList}
</dl>
</section>`;
}

export function checkoutPage(session: TestSession, planName: string, taxes: Tax[], error?: string): string {
  const action = `${TEST_PROVIDER_PREFIX}/checkout/${encodeURIComponent(session.id)}`;
  const cards = `<section aria-labelledby="cards-heading">
<h2 id="cards-heading">${e(t('testPayments.cardsTitle'))}</h2>
<ul>
<li>${e(t('testPayments.cardSucceeds', { number: TEST_CARDS.succeeds }))}</li>
<li>${e(t('testPayments.cardDeclined', { number: TEST_CARDS.declined }))}</li>
<li>${e(t('testPayments.cardConfirmation', { number: TEST_CARDS.needsConfirmation }))}</li>
</ul>
</section>`;
  return page(
    t('testPayments.checkoutTitle'),
    `${offerSummary(session, planName, taxes)}
${message('error', error)}
<form method="post" action="${e(action)}/pay">
<label for="card">${e(t('testPayments.cardLabel'))}</label>
<input id="card" name="card" inputmode="numeric" autocomplete="cc-number" required${error ? ' aria-invalid="true"' : ''}>
<div class="actions">
<button type="submit">${e(t(session.trialDays > 0 ? 'testPayments.startTrial' : 'testPayments.pay'))}</button>
<button type="submit" class="secondary" formaction="${e(action)}/cancel" formnovalidate>${e(t('testPayments.cancel'))}</button>
</div>
</form>
${cards}`,
  );
}

export function confirmationPage(session: TestSession, planName: string, taxes: Tax[]): string {
  const action = `${TEST_PROVIDER_PREFIX}/checkout/${encodeURIComponent(session.id)}/confirm`;
  return page(
    t('testPayments.confirmTitle'),
    `${offerSummary(session, planName, taxes)}
<form method="post" action="${e(action)}">
<p>${e(t('testPayments.confirmIntro'))}</p>
<div class="actions">
<button type="submit" name="decision" value="confirm">${e(t('testPayments.confirm'))}</button>
<button type="submit" class="secondary" name="decision" value="fail">${e(t('testPayments.fail'))}</button>
</div>
</form>`,
  );
}

export function expiredPage(): string {
  return page(t('testPayments.checkoutTitle'), message('error', t('testPayments.expired')));
}

export interface PortalView {
  session: TestSession;
  subscription: TestSubscription | undefined;
  planName: string | undefined;
  /** The paid offers the subscription may move to. */
  offers: Offer[];
  notice?: string;
}

const day = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : '');

export function portalPage({ session, subscription, planName, offers, notice }: PortalView): string {
  const base = `${TEST_PROVIDER_PREFIX}/portal/${encodeURIComponent(session.id)}`;
  const back = `<p><a href="${e(session.returnUrl)}">${e(t('testPayments.back'))}</a></p>`;
  if (!subscription)
    return page(t('testPayments.portalTitle'), `${message('success', notice)}<p>${e(t('testPayments.noSubscription'))}</p>${back}`);
  const statusText = t(`testPayments.statuses.${subscription.status}`);
  const details = `<section aria-labelledby="subscription-heading">
<h2 id="subscription-heading">${e(planName ?? subscription.planKey)}</h2>
<dl>
<dt>${e(t('testPayments.price'))}</dt><dd>${e(formatPrice({ amount: offers.find((offer) => offer.plan.key === subscription.planKey && offer.price.currency === subscription.currency && offer.price.recurrenceInterval === subscription.recurrenceInterval)?.price.amount ?? 0, currency: subscription.currency, recurrenceInterval: subscription.recurrenceInterval }))}</dd>
<dt>${e(t('testPayments.status'))}</dt><dd>${e(statusText)}</dd>
${subscription.trialEnd ? `<dt>${e(t('testPayments.trialEnd'))}</dt><dd>${e(day(subscription.trialEnd))}</dd>` : ''}
<dt>${e(t('testPayments.periodEnd'))}</dt><dd>${e(day(subscription.currentPeriodEnd))}</dd>
</dl>
${subscription.cancelAtPeriodEnd ? `<p>${e(t('testPayments.endsAtPeriodEnd'))}</p>` : ''}
</section>`;
  const cancelOrResume = `<form method="post" action="${e(base)}/${subscription.cancelAtPeriodEnd ? 'resume' : 'cancel'}">
<button type="submit">${e(t(subscription.cancelAtPeriodEnd ? 'testPayments.resume' : 'testPayments.cancelAtPeriodEnd'))}</button>
</form>`;
  const others = offers.filter(
    (offer) =>
      !(
        offer.plan.key === subscription.planKey &&
        offer.price.currency === subscription.currency &&
        offer.price.recurrenceInterval === subscription.recurrenceInterval
      ),
  );
  const change = others.length
    ? `<form method="post" action="${e(base)}/change" aria-labelledby="change-heading">
<h2 id="change-heading">${e(t('testPayments.changePlan'))}</h2>
<label for="offer">${e(t('testPayments.newPlan'))}</label>
<select id="offer" name="offer">
${others.map((offer) => `<option value="${e(`${offer.plan.key}|${offer.price.currency}|${offer.price.recurrenceInterval}`)}">${e(`${offer.plan.name} · ${formatPrice(offer.price)}`)}</option>`).join('\n')}
</select>
<div class="actions"><button type="submit">${e(t('testPayments.change'))}</button></div>
</form>`
    : '';
  return page(t('testPayments.portalTitle'), `${message('success', notice)}${details}${cancelOrResume}${change}${back}`);
}

export const testPageTexts = {
  updated: () => t('testPayments.updated'),
  declined: () => t('testPayments.declined'),
  unknownCard: () => t('testPayments.unknownCard'),
  confirmFailed: () => t('testPayments.confirmFailed'),
};
