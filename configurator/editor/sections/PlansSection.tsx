// Plans and payments: the app's pricing plans (key, name, description, trial days, prices in a
// currency and billing period), its taxes, and its Stripe keys (secrets written, never shown back;
// without them Foyer's test-mode provider takes payments outside production). All of it is part of
// the config document (settings.payments, schema/app-config.schema.json): draft, preview, publish.
import { useTranslation } from 'react-i18next';
import { RECURRENCE_INTERVALS, type PaymentSettings, type PlanPrice, type PricingPlan, type Tax } from '../../../common/payments.ts';
import { Button } from '../../../src/theme/Button.tsx';
import { CopyField } from '../../components/CopyField.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useConsole } from '../../session.tsx';
import { getIn } from '../config-path.ts';
import { useEditor } from '../context.ts';
import { PathText, useIssue } from './fields.tsx';
import { SectionHeading } from './SectionHeading.tsx';

const MAX_PLANS = 20;
const MAX_PRICES = 12;
const MAX_TAXES = 50;

/** A key not used yet: PLAN, PLAN_2, … */
function freshKey(plans: PricingPlan[]): string {
  const used = new Set(plans.map((plan) => plan.key));
  for (let number = 1; ; number++) {
    const key = number === 1 ? 'PLAN' : `PLAN_${number}`;
    if (!used.has(key)) return key;
  }
}

/** A number typed in a field, or the text itself so the server names what is wrong with it. */
const numberOf = (text: string): number | string => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text);

export function PlansSection() {
  const { t } = useTranslation();
  const { draft, edit } = useEditor();
  const payments: PaymentSettings = draft.config.payments ?? {};
  const plans = payments.plans ?? [];
  const taxes = payments.taxes ?? [];
  const setPayments = (change: Partial<PaymentSettings>) =>
    edit((config) => ({ ...config, payments: { ...(config.payments ?? {}), ...change } }));
  const setPlan = (index: number, change: Partial<PricingPlan>) =>
    setPayments({ plans: plans.map((plan, at) => (at === index ? { ...plan, ...change } : plan)) });
  const setTax = (index: number, change: Partial<Tax>) =>
    setPayments({ taxes: taxes.map((tax, at) => (at === index ? { ...tax, ...change } : tax)) });

  return (
    <div className="foyer-stack">
      <SectionHeading label="sections.plans" intro="plans.intro" />
      {plans.length === 0 && <p className="console__empty">{t('plans.empty')}</p>}
      <ol className="foyer-plain-list foyer-stack">
        {plans.map((plan, index) => (
          <PlanEditor
            key={index}
            index={index}
            plan={plan}
            onChange={(change) => setPlan(index, change)}
            onRemove={() => setPayments({ plans: plans.filter((_plan, at) => at !== index) })}
          />
        ))}
      </ol>
      <Button
        variant="secondary"
        size="md"
        className="console__inline-button"
        disabled={plans.length >= MAX_PLANS}
        onClick={() =>
          setPayments({
            plans: [
              ...plans,
              {
                key: freshKey(plans),
                name: t('plans.newPlanName'),
                trialDays: 0,
                prices: [{ amount: 0, currency: 'USD', recurrenceInterval: 'month' }],
              },
            ],
          })
        }
      >
        {t('plans.addPlan')}
      </Button>

      <fieldset className="console-fieldset">
        <legend className="foyer-section-title">{t('plans.taxes')}</legend>
        <p className="foyer-help">{t('plans.taxesIntro')}</p>
        <ol className="foyer-plain-list foyer-stack">
          {taxes.map((tax, index) => (
            <TaxEditor
              key={index}
              index={index}
              tax={tax}
              onChange={(change) => setTax(index, change)}
              onRemove={() => setPayments({ taxes: taxes.filter((_tax, at) => at !== index) })}
            />
          ))}
        </ol>
        <Button
          variant="secondary"
          size="md"
          className="console__inline-button"
          disabled={taxes.length >= MAX_TAXES}
          onClick={() => setPayments({ taxes: [...taxes, { name: t('plans.newTaxName'), countryCode: 'SE', percentage: 25 }] })}
        >
          {t('plans.addTax')}
        </Button>
      </fieldset>

      <StripeKeys />
    </div>
  );
}

function PlanEditor({
  index,
  plan,
  onChange,
  onRemove,
}: {
  index: number;
  plan: PricingPlan;
  onChange(change: Partial<PricingPlan>): void;
  onRemove(): void;
}) {
  const { t } = useTranslation();
  const base = ['payments', 'plans', index];
  const keyIssue = useIssue([...base, 'key']);
  const nameIssue = useIssue([...base, 'name']);
  const descriptionIssue = useIssue([...base, 'description']);
  const trialIssue = useIssue([...base, 'trialDays']);
  const name = plan.name || plan.key;
  const setPrice = (at: number, change: Partial<PlanPrice>) =>
    onChange({ prices: plan.prices.map((price, priceIndex) => (priceIndex === at ? { ...price, ...change } : price)) });
  return (
    <li>
      <fieldset className="console-fieldset">
        <legend className="foyer-section-title">{t('plans.legend', { number: index + 1, name })}</legend>
        <div className="console-signup-field__grid">
          <TextField
            label={t('plans.name')}
            value={plan.name}
            onChange={(value) => onChange({ name: value })}
            maxLength={100}
            error={nameIssue}
          />
          <TextField
            label={t('plans.key')}
            value={plan.key}
            onChange={(value) => onChange({ key: value.toUpperCase() })}
            help={t('plans.keyHelp')}
            maxLength={40}
            spellCheck={false}
            error={keyIssue}
          />
          <TextField
            label={t('plans.description')}
            value={plan.description ?? ''}
            onChange={(value) => onChange({ description: value || null })}
            maxLength={500}
            error={descriptionIssue}
          />
          <TextField
            label={t('plans.trialDays')}
            type="number"
            inputMode="numeric"
            min={0}
            max={365}
            step={1}
            value={String(plan.trialDays ?? 0)}
            onChange={(value) => onChange({ trialDays: numberOf(value) as number })}
            help={t('plans.trialDaysHelp')}
            error={trialIssue}
          />
        </div>
        <ol className="foyer-plain-list foyer-stack" aria-label={t('plans.pricesOf', { name })}>
          {plan.prices.map((price, priceIndex) => (
            <PriceEditor
              key={priceIndex}
              path={[...base, 'prices', priceIndex]}
              number={priceIndex + 1}
              planName={name}
              price={price}
              onChange={(change) => setPrice(priceIndex, change)}
              onRemove={
                plan.prices.length > 1 ? () => onChange({ prices: plan.prices.filter((_price, at) => at !== priceIndex) }) : undefined
              }
            />
          ))}
        </ol>
        <div className="foyer-inline-actions">
          <Button
            variant="secondary"
            size="sm"
            disabled={plan.prices.length >= MAX_PRICES}
            aria-label={t('plans.addPriceNamed', { name })}
            onClick={() =>
              onChange({ prices: [...plan.prices, { amount: 0, currency: plan.prices[0]?.currency ?? 'USD', recurrenceInterval: 'year' }] })
            }
          >
            {t('plans.addPrice')}
          </Button>
          <Button variant="danger" size="sm" aria-label={t('plans.removeNamed', { name })} onClick={onRemove}>
            {t('plans.remove')}
          </Button>
        </div>
      </fieldset>
    </li>
  );
}

function PriceEditor({
  path,
  number,
  planName,
  price,
  onChange,
  onRemove,
}: {
  path: (string | number)[];
  number: number;
  planName: string;
  price: PlanPrice;
  onChange(change: Partial<PlanPrice>): void;
  onRemove?: () => void;
}) {
  const { t } = useTranslation();
  const amountIssue = useIssue([...path, 'amount']);
  const currencyIssue = useIssue([...path, 'currency']);
  const intervalIssue = useIssue([...path, 'recurrenceInterval']);
  const offerIssue = useIssue(path);
  const intervalId = `${path.join('-')}-interval`;
  return (
    <li className="console-list-row" aria-label={t('plans.priceLegend', { number, name: planName })}>
      <TextField
        label={t('plans.amount')}
        type="number"
        inputMode="decimal"
        min={0}
        step="0.01"
        value={String(price.amount)}
        onChange={(value) => onChange({ amount: numberOf(value) as number })}
        help={t('plans.amountHelp')}
        error={amountIssue}
      />
      <TextField
        label={t('plans.currency')}
        value={price.currency}
        onChange={(value) => onChange({ currency: value.toUpperCase() })}
        maxLength={3}
        spellCheck={false}
        error={currencyIssue ?? (offerIssue && !amountIssue && !intervalIssue ? offerIssue : undefined)}
      />
      <div className="foyer-field">
        <label className="foyer-label" htmlFor={intervalId}>
          {t('plans.interval')}
        </label>
        <select
          id={intervalId}
          className="foyer-select"
          value={price.recurrenceInterval}
          onChange={(event) => onChange({ recurrenceInterval: event.target.value as PlanPrice['recurrenceInterval'] })}
        >
          {RECURRENCE_INTERVALS.map((interval) => (
            <option key={interval} value={interval}>
              {t(`plans.intervals.${interval}`)}
            </option>
          ))}
        </select>
        {intervalIssue && <p className="foyer-field-error">{intervalIssue}</p>}
      </div>
      {onRemove && (
        <Button variant="danger" size="sm" aria-label={t('plans.removePriceNamed', { number, name: planName })} onClick={onRemove}>
          {t('plans.removePrice')}
        </Button>
      )}
    </li>
  );
}

function TaxEditor({
  index,
  tax,
  onChange,
  onRemove,
}: {
  index: number;
  tax: Tax;
  onChange(change: Partial<Tax>): void;
  onRemove(): void;
}) {
  const { t } = useTranslation();
  const base = ['payments', 'taxes', index];
  const nameIssue = useIssue([...base, 'name']);
  const countryIssue = useIssue([...base, 'countryCode']);
  const percentageIssue = useIssue([...base, 'percentage']);
  return (
    <li className="console-list-row" aria-label={t('plans.taxLegend', { number: index + 1, name: tax.name })}>
      <TextField
        label={t('plans.taxName')}
        value={tax.name}
        onChange={(value) => onChange({ name: value })}
        maxLength={100}
        error={nameIssue}
      />
      <TextField
        label={t('plans.countryCode')}
        value={tax.countryCode}
        onChange={(value) => onChange({ countryCode: value.toUpperCase() })}
        maxLength={2}
        spellCheck={false}
        error={countryIssue}
      />
      <TextField
        label={t('plans.percentage')}
        type="number"
        inputMode="decimal"
        min={0}
        max={100}
        step="0.01"
        value={String(tax.percentage)}
        onChange={(value) => onChange({ percentage: numberOf(value) as number })}
        error={percentageIssue}
      />
      <Button variant="danger" size="sm" aria-label={t('plans.removeTaxNamed', { name: tax.name })} onClick={onRemove}>
        {t('plans.removeTax')}
      </Button>
    </li>
  );
}

/** Stripe's keys: the secrets go in and come back only as "set" (server/admin/config-document.ts). */
function StripeKeys() {
  const { t } = useTranslation();
  const { appId, draft, set } = useEditor();
  const { config } = useConsole();
  const secretField = (name: 'secretKey' | 'webhookSecret', has: 'hasSecretKey' | 'hasWebhookSecret') => {
    const path = ['payments', 'stripe', name];
    const value = getIn(draft.config, path);
    return { path, value: typeof value === 'string' ? value : '', isSet: getIn(draft.config, ['payments', 'stripe', has]) === true };
  };
  const secretKey = secretField('secretKey', 'hasSecretKey');
  const webhookSecret = secretField('webhookSecret', 'hasWebhookSecret');
  const secretKeyIssue = useIssue(secretKey.path);
  const webhookIssue = useIssue(webhookSecret.path);
  return (
    <fieldset className="console-fieldset">
      <legend className="foyer-section-title">{t('plans.stripe')}</legend>
      <p className="foyer-help">{t('plans.stripeIntro')}</p>
      <CopyField label={t('plans.webhookUrl')} value={`${config.apiUrl.replace(/\/+$/, '')}/payments/webhook/${appId}`} />
      <div className="console-provider__fields">
        <PathText path={['payments', 'stripe', 'publishableKey']} label={t('plans.publishableKey')} autoComplete="off" spellCheck={false} />
        <TextField
          label={t('plans.secretKey')}
          type="password"
          autoComplete="new-password"
          value={secretKey.value}
          onChange={(text) => set(secretKey.path, text)}
          help={secretKey.isSet ? t('plans.secretSet') : t('plans.secretNotSet')}
          error={secretKeyIssue}
        />
        <TextField
          label={t('plans.webhookSecret')}
          type="password"
          autoComplete="new-password"
          value={webhookSecret.value}
          onChange={(text) => set(webhookSecret.path, text)}
          help={webhookSecret.isSet ? t('plans.secretSet') : t('plans.secretNotSet')}
          error={webhookIssue}
        />
      </div>
    </fieldset>
  );
}
