// The plan cards of /tenant/plan (SPEC.md sections 4 and 9): one card per plan offered in the chosen
// currency and billing period, with currency and period switches when the plans have several, the
// current plan marked, trials named, and 'Manage payments' once payments are enabled. Picking a card
// submits the flow step (flows/tenant-plan.json), which sets the plan and leads on. Members who may
// not change the plan (common/payments.ts) see the cards without buttons and a sentence why.
import { useEffect, useId, useState } from 'react';
import { useTexts } from '../i18n/texts.ts';
import { useGraphQL } from '../api/react.tsx';
import type { FlowComponentProps } from '../flow/component-types.ts';
import type { Target } from '../flow/types.ts';
import { GetPaymentOptionsAnonymousDocument, GetTenantPaymentDetailsDocument, type PlanFieldsFragment } from '../gql/graphql.ts';
import { currencySymbol, mayChangePlan } from '../../common/payments.ts';
import { Alert } from '../theme/Alert.tsx';
import { Button } from '../theme/Button.tsx';

/** SPEC.md section 9: three placeholders unless the page asks for another number. */
const DEFAULT_SKELETONS = 3;

const INTERVAL_ORDER = ['day', 'week', 'month', 'year'];

type Price = PlanFieldsFragment['prices'][number];

function distinct<T>(values: T[]): T[] {
  return [...new Set(values)];
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

function Skeletons({ count, label }: { count: number; label: string }) {
  return (
    <div className="foyer-plans" aria-busy="true">
      <p role="status" className="foyer-visually-hidden">
        {label}
      </p>
      {Array.from({ length: count }, (_, index) => (
        <div key={index} className="foyer-plan foyer-plan--skeleton" aria-hidden="true">
          <span className="foyer-skeleton foyer-skeleton--title" />
          <span className="foyer-skeleton" />
          <span className="foyer-skeleton foyer-skeleton--price" />
          <span className="foyer-skeleton foyer-skeleton--button" />
        </div>
      ))}
    </div>
  );
}

interface SwitchProps {
  legend: string;
  name: string;
  options: { value: string; label: string }[];
  value: string;
  onChange(value: string): void;
}

/** A row of radio buttons: arrow keys move between them, as radio groups do. */
function Segmented({ legend, name, options, value, onChange }: SwitchProps) {
  return (
    <fieldset className="foyer-segmented">
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option.value} className="foyer-segmented__option">
          <input type="radio" name={name} value={option.value} checked={value === option.value} onChange={() => onChange(option.value)} />
          <span>{option.label}</span>
        </label>
      ))}
    </fieldset>
  );
}

export default function PlanCards({ props, status, submit, follow }: FlowComponentProps) {
  const { t, texts } = useTexts();
  // The symbol follows docs/SPEC.md section 9; the number is written as the screen's language writes it.
  const amountFormat = new Intl.NumberFormat(texts.language, { maximumFractionDigits: 2 });
  const readOnlyId = useId();
  const options = useGraphQL(GetPaymentOptionsAnonymousDocument);
  const payment = useGraphQL(GetTenantPaymentDetailsDocument);
  const canChange = mayChangePlan(text(props.role));
  const plans = options.data?.getPaymentOptionsAnonymous.plans ?? [];
  const taxes = options.data?.getPaymentOptionsAnonymous.taxes ?? [];
  const details = payment.data?.getTenantPaymentDetails.details;
  const paymentStatus = payment.data?.getTenantPaymentDetails.status;
  const prices = plans.flatMap((plan) => plan.prices);
  const currencies = distinct(prices.map((price) => price.currency));
  const intervals = distinct(prices.map((price) => price.recurrenceInterval)).sort(
    (a, b) => INTERVAL_ORDER.indexOf(a) - INTERVAL_ORDER.indexOf(b),
  );

  // The signup link's offer, else the current plan's, else the first price offered.
  const wanted = (field: 'currency' | 'recurrenceInterval', from: string[]) => {
    const candidates = [
      text(props[field])?.[field === 'currency' ? 'toUpperCase' : 'toLowerCase'](),
      details?.price?.[field],
      prices[0]?.[field],
    ];
    return candidates.find((candidate) => candidate !== undefined && from.includes(candidate)) ?? '';
  };
  const [currency, setCurrency] = useState<string>();
  const [interval, setInterval] = useState<string>();
  const shownCurrency = currency ?? wanted('currency', currencies);
  const shownInterval = interval ?? wanted('recurrenceInterval', intervals);

  const loaded = options.isSuccess && payment.isSuccess;
  const noPlans = loaded && plans.length === 0;
  const leave = props.noPlans as Target | undefined;
  useEffect(() => {
    if (noPlans && leave) follow?.(leave);
  }, [noPlans, leave, follow]);

  if (options.isError || payment.isError) return <Alert title={t('errors.title')}>{t('tenantPlan.errors.load')}</Alert>;
  if (!loaded || noPlans) {
    const count = typeof props.skeletons === 'number' ? props.skeletons : DEFAULT_SKELETONS;
    return <Skeletons count={count} label={t('tenantPlan.loading')} />;
  }

  const busy = status === 'submitting' || status === 'leaving';
  const isCurrent = (plan: PlanFieldsFragment, price: Price) =>
    details?.plan?.key === plan.key &&
    details.price?.currency === price.currency &&
    details.price.recurrenceInterval === price.recurrenceInterval;
  const priceText = (price: Price) =>
    price.amount === 0 ? t('tenantPlan.free') : `${currencySymbol(price.currency)}${amountFormat.format(price.amount)}`;

  return (
    <div className="foyer-stack">
      {!canChange && (
        <p id={readOnlyId} className="foyer-muted">
          {t('tenantPlan.readOnly')}
        </p>
      )}
      {details?.trial && (
        <Alert variant="primary" polite>
          {t('tenantPlan.trialLeft', { count: details.trialDaysLeft })}
        </Alert>
      )}
      {paymentStatus?.shouldSetupPayments && (
        <Alert variant="warning" polite>
          {t('tenantPlan.pendingCheckout')}
        </Alert>
      )}
      {(currencies.length > 1 || intervals.length > 1) && (
        <div className="foyer-plan-switches">
          {currencies.length > 1 && (
            <Segmented
              legend={t('tenantPlan.currency')}
              name="currency"
              value={shownCurrency}
              onChange={setCurrency}
              options={currencies.map((code) => ({
                value: code,
                label: `${code} ${currencySymbol(code) === code ? '' : currencySymbol(code)}`.trim(),
              }))}
            />
          )}
          {intervals.length > 1 && (
            <Segmented
              legend={t('tenantPlan.interval')}
              name="recurrenceInterval"
              value={shownInterval}
              onChange={setInterval}
              options={intervals.map((value) => ({ value, label: t(`tenantPlan.intervals.${value}`, { defaultValue: value }) }))}
            />
          )}
        </div>
      )}
      <ul className="foyer-plans" aria-label={t('tenantPlan.plansLabel')}>
        {plans.map((plan) => {
          const price = plan.prices.find((item) => item.currency === shownCurrency && item.recurrenceInterval === shownInterval);
          const current = price !== undefined && isCurrent(plan, price);
          const headingId = `plan-${plan.key}`;
          const action = plan.trial ? t('tenantPlan.trial', { count: plan.trialDays }) : t('tenantPlan.getStarted');
          return (
            <li key={plan.key} className={`foyer-plan${current ? ' foyer-plan--current' : ''}`} aria-labelledby={headingId}>
              <h2 id={headingId} className="foyer-plan__name">
                {plan.name}
              </h2>
              {plan.description && <p className="foyer-plan__description">{plan.description}</p>}
              {price ? (
                <p className="foyer-plan__price">
                  <span className="foyer-plan__amount">{priceText(price)}</span>
                  {price.amount !== 0 && (
                    <span className="foyer-plan__interval">
                      <span aria-hidden="true">
                        /{t(`tenantPlan.abbreviations.${price.recurrenceInterval}`, { defaultValue: price.recurrenceInterval })}
                      </span>
                      <span className="foyer-visually-hidden">
                        {t('tenantPlan.perInterval', {
                          interval: t(`tenantPlan.intervals.${price.recurrenceInterval}`, { defaultValue: price.recurrenceInterval }),
                        })}
                      </span>
                    </span>
                  )}
                </p>
              ) : (
                <p className="foyer-muted">{t('tenantPlan.noOffer')}</p>
              )}
              {current ? (
                <p className="foyer-plan__current">{t('tenantPlan.current')}</p>
              ) : (
                canChange &&
                price && (
                  <Button
                    size="md"
                    variant={plan.trial ? 'primary' : 'secondary'}
                    loading={busy}
                    aria-label={t('tenantPlan.choose', { action, plan: plan.name })}
                    onClick={() => submit({ planKey: plan.key, currency: price.currency, recurrenceInterval: price.recurrenceInterval })}
                  >
                    {action}
                  </Button>
                )
              )}
            </li>
          );
        })}
      </ul>
      {taxes.length > 0 && (
        <div className="foyer-plan-taxes">
          <p>{t('tenantPlan.taxes')}</p>
          <ul>
            {taxes.map((tax) => (
              <li key={tax.id}>{t('tenantPlan.tax', { name: tax.name, countryCode: tax.countryCode, percentage: tax.percentage })}</li>
            ))}
          </ul>
        </div>
      )}
      {canChange && paymentStatus?.paymentsEnabled && props.managePayments !== undefined && (
        <Button variant="secondary" size="md" loading={busy} onClick={() => follow?.(props.managePayments as Target)}>
          {t('tenantPlan.managePayments')}
        </Button>
      )}
    </div>
  );
}
