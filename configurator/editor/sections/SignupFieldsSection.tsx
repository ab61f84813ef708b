// Custom signup fields: the extra inputs of the signup form. Add, reorder (move up/down), remove;
// each has a machine name, a type, the label users see, a pattern (regex type), its choices (select
// type), where the answer is stored and "required".
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { CustomSignupField, CustomSignupOption } from '../../../common/app-config.ts';
import { Button } from '../../../src/theme/Button.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useEditor } from '../context.ts';
import { useIssue } from './fields.tsx';
import { SectionHeading } from './SectionHeading.tsx';
import { SIGNUP_FIELD_TARGETS, SIGNUP_FIELD_TYPES, moveField, newOption, newSignupField, updateField } from './signup-fields.ts';

const MAX_FIELDS = 20;
/** schema/app-config.schema.json: at most 50 choices per select field. */
const MAX_OPTIONS = 50;

export function SignupFieldsSection() {
  const { t } = useTranslation();
  const { draft, edit } = useEditor();
  const fields = draft.config.customSignupFields ?? [];
  const listRef = useRef<HTMLOListElement>(null);
  const setFields = (next: CustomSignupField[]) =>
    edit((config) => {
      const { customSignupFields: _previous, ...rest } = config;
      return next.length > 0 ? { ...rest, customSignupFields: next } : rest;
    });

  /** After a move the moved field's same button keeps focus, or its other one at an end. */
  const focusAfterMove = (index: number, direction: 'up' | 'down') => {
    requestAnimationFrame(() => {
      const item = listRef.current?.children[index];
      const preferred = item?.querySelector<HTMLButtonElement>(`[data-move="${direction}"]:not([disabled])`);
      (preferred ?? item?.querySelector<HTMLButtonElement>('[data-move]:not([disabled])'))?.focus();
    });
  };

  return (
    <div className="foyer-stack">
      <SectionHeading label="sections.signupFields" intro="signupFields.intro" />
      {fields.length === 0 && <p className="console__empty">{t('signupFields.empty')}</p>}
      <ol className="foyer-plain-list foyer-stack" ref={listRef}>
        {fields.map((field, index) => (
          <SignupFieldEditor
            key={index}
            index={index}
            field={field}
            count={fields.length}
            onChange={(change) => setFields(updateField(fields, index, change))}
            onMove={(direction) => {
              const to = direction === 'up' ? index - 1 : index + 1;
              setFields(moveField(fields, index, to));
              focusAfterMove(to, direction);
            }}
            onRemove={() => setFields(fields.filter((_field, at) => at !== index))}
          />
        ))}
      </ol>
      <Button
        variant="secondary"
        size="md"
        className="console__inline-button"
        disabled={fields.length >= MAX_FIELDS}
        onClick={() => {
          setFields([...fields, newSignupField(fields, t('signupFields.newFieldLabel'))]);
          requestAnimationFrame(() => listRef.current?.lastElementChild?.querySelector<HTMLInputElement>('input')?.focus());
        }}
      >
        {t('signupFields.add')}
      </Button>
    </div>
  );
}

function SignupFieldEditor({
  index,
  field,
  count,
  onChange,
  onMove,
  onRemove,
}: {
  index: number;
  field: CustomSignupField;
  count: number;
  onChange(change: Partial<CustomSignupField>): void;
  onMove(direction: 'up' | 'down'): void;
  onRemove(): void;
}) {
  const { t } = useTranslation();
  const base = ['customSignupFields', index];
  const labelIssue = useIssue([...base, 'label']);
  const userLabelIssue = useIssue([...base, 'userLabel']);
  const regexIssue = useIssue([...base, 'regex']);
  const typeIssue = useIssue([...base, 'type']);
  const number = index + 1;
  const name = field.userLabel || field.label;
  const typeId = `signup-field-${index}-type`;
  const targetId = `signup-field-${index}-target`;
  const targetHelpId = `${targetId}-help`;
  return (
    <li className="console-signup-field">
      <fieldset className="console-fieldset">
        <legend className="foyer-section-title">{t('signupFields.legend', { number, name })}</legend>
        <div className="console-signup-field__grid">
          <TextField
            label={t('signupFields.userLabel')}
            value={field.userLabel}
            onChange={(userLabel) => onChange({ userLabel })}
            maxLength={100}
            error={userLabelIssue}
          />
          <TextField
            label={t('signupFields.label')}
            value={field.label}
            onChange={(label) => onChange({ label })}
            help={t('signupFields.labelHelp')}
            maxLength={50}
            spellCheck={false}
            error={labelIssue}
          />
          <div className="foyer-field">
            <label className="foyer-label" htmlFor={typeId}>
              {t('signupFields.type')}
            </label>
            <select
              id={typeId}
              className="foyer-select"
              value={field.type}
              onChange={(event) => onChange({ type: event.target.value as CustomSignupField['type'] })}
            >
              {SIGNUP_FIELD_TYPES.map((type) => (
                <option key={type} value={type}>
                  {t(`signupFields.types.${type}`)}
                </option>
              ))}
            </select>
            {typeIssue && <p className="foyer-field-error">{typeIssue}</p>}
          </div>
          {field.type === 'regex' && (
            <TextField
              label={t('signupFields.regex')}
              value={field.regex ?? ''}
              onChange={(regex) => onChange({ regex })}
              help={t('signupFields.regexHelp')}
              spellCheck={false}
              className="console__mono"
              error={regexIssue}
            />
          )}
          {field.type === 'select' && (
            <SelectOptionsEditor base={[...base, 'options']} options={field.options ?? []} onChange={(options) => onChange({ options })} />
          )}
          <div className="foyer-field">
            <label className="foyer-label" htmlFor={targetId}>
              {t('signupFields.target')}
            </label>
            <select
              id={targetId}
              className="foyer-select"
              value={field.target ?? 'membership'}
              aria-describedby={targetHelpId}
              onChange={(event) => onChange({ target: event.target.value as CustomSignupField['target'] })}
            >
              {SIGNUP_FIELD_TARGETS.map((target) => (
                <option key={target} value={target}>
                  {t(`signupFields.targets.${target}`)}
                </option>
              ))}
            </select>
            <p id={targetHelpId} className="foyer-help">
              {t('signupFields.targetHelp')}
            </p>
          </div>
          <label className="foyer-checkbox">
            <input type="checkbox" checked={field.required === true} onChange={(event) => onChange({ required: event.target.checked })} />
            {t('signupFields.required')}
          </label>
        </div>
        <div className="foyer-inline-actions">
          <Button
            variant="secondary"
            size="sm"
            data-move="up"
            disabled={index === 0}
            aria-label={t('signupFields.moveUpNamed', { name })}
            onClick={() => onMove('up')}
          >
            {t('signupFields.moveUp')}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            data-move="down"
            disabled={index === count - 1}
            aria-label={t('signupFields.moveDownNamed', { name })}
            onClick={() => onMove('down')}
          >
            {t('signupFields.moveDown')}
          </Button>
          <Button variant="danger" size="sm" aria-label={t('signupFields.removeNamed', { name })} onClick={onRemove}>
            {t('signupFields.remove')}
          </Button>
        </div>
      </fieldset>
    </li>
  );
}

/** The choices of a select field: a value and the label users see each; at least one stays. */
function SelectOptionsEditor({
  base,
  options,
  onChange,
}: {
  base: (string | number)[];
  options: CustomSignupOption[];
  onChange(options: CustomSignupOption[]): void;
}) {
  const { t } = useTranslation();
  const listRef = useRef<HTMLOListElement>(null);
  const change = (at: number, patch: Partial<CustomSignupOption>) =>
    onChange(options.map((option, index) => (index === at ? { ...option, ...patch } : option)));
  return (
    <fieldset className="console-fieldset">
      <legend className="foyer-label">{t('signupFields.options')}</legend>
      <ol className="foyer-plain-list foyer-stack" ref={listRef}>
        {options.map((option, at) => (
          <OptionEditor
            key={at}
            base={[...base, at]}
            number={at + 1}
            option={option}
            removable={options.length > 1}
            onChange={(patch) => change(at, patch)}
            onRemove={() => onChange(options.filter((_option, index) => index !== at))}
          />
        ))}
      </ol>
      <Button
        variant="secondary"
        size="sm"
        className="console__inline-button"
        disabled={options.length >= MAX_OPTIONS}
        onClick={() => {
          onChange([...options, newOption(options)]);
          requestAnimationFrame(() => listRef.current?.lastElementChild?.querySelector<HTMLInputElement>('input')?.focus());
        }}
      >
        {t('signupFields.addOption')}
      </Button>
    </fieldset>
  );
}

function OptionEditor({
  base,
  number,
  option,
  removable,
  onChange,
  onRemove,
}: {
  base: (string | number)[];
  number: number;
  option: CustomSignupOption;
  removable: boolean;
  onChange(patch: Partial<CustomSignupOption>): void;
  onRemove(): void;
}) {
  const { t } = useTranslation();
  const valueIssue = useIssue([...base, 'value']);
  const labelIssue = useIssue([...base, 'label']);
  return (
    <li>
      <fieldset className="console-fieldset">
        <legend className="foyer-label">{t('signupFields.optionLegend', { number })}</legend>
        <div className="console-signup-field__grid">
          <TextField
            label={t('signupFields.optionLabel')}
            value={option.label}
            onChange={(label) => onChange({ label })}
            maxLength={100}
            error={labelIssue}
          />
          <TextField
            label={t('signupFields.optionValue')}
            value={option.value}
            onChange={(value) => onChange({ value })}
            help={t('signupFields.optionValueHelp')}
            maxLength={50}
            spellCheck={false}
            error={valueIssue}
          />
        </div>
        <div className="foyer-inline-actions">
          <Button
            variant="danger"
            size="sm"
            disabled={!removable}
            aria-label={t('signupFields.removeOptionNamed', { name: option.label || option.value })}
            onClick={onRemove}
          >
            {t('signupFields.removeOption')}
          </Button>
        </div>
      </fieldset>
    </li>
  );
}
