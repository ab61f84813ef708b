// Branding: name, logo (uploaded to the API host, its URL goes into the draft), colours as design
// tokens, radius, font, copyright footer and custom CSS. An emptied value falls back to Foyer's default.
import { useMutation } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { brandingColors, type BrandingColor } from '../../../common/app-config.ts';
import { Button } from '../../../src/theme/Button.tsx';
import { CUSTOM_CSS_MAX_LENGTH, LOGO_MAX_BYTES, LOGO_TYPES } from '../../api/types.ts';
import { errorText } from '../../components/errors.ts';
import { useConsole } from '../../session.tsx';
import { getIn } from '../config-path.ts';
import { useEditor } from '../context.ts';
import { PathText, useIssue } from './fields.tsx';
import { SectionHeading } from './SectionHeading.tsx';

/** Foyer's default of each colour token (src/theme/tokens.css), shown when the app sets none. */
export const DEFAULT_COLORS: Record<BrandingColor, string> = {
  primary: '#1f42dd',
  secondary: '#3dc2ff',
  danger: '#eb445a',
  text: '#111827',
  background: '#f3f4f6',
};

/** The colour picker needs #rrggbb: #rgb is expanded, other notations show the default. */
export function pickerValue(value: string | undefined, fallback: string): string {
  if (!value) return fallback;
  if (/^#[0-9a-f]{6}$/i.test(value)) return value.toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase();
  return fallback;
}

export function BrandingSection() {
  const { t } = useTranslation();
  return (
    <div className="foyer-stack">
      <SectionHeading label="sections.branding" intro="branding.intro" />
      <PathText path={['name']} label={t('branding.name')} required maxLength={100} />
      <LogoField />
      <fieldset className="console-fieldset">
        <legend className="foyer-section-title">{t('branding.colors')}</legend>
        <div className="console-colors">
          {brandingColors.map((color) => (
            <ColorField key={color} color={color} />
          ))}
        </div>
      </fieldset>
      <PathText path={['branding', 'radius']} label={t('branding.radius')} placeholder="8px" help={t('branding.radiusHelp')} />
      <PathText path={['branding', 'font']} label={t('branding.font')} placeholder="Inter, sans-serif" help={t('branding.fontHelp')} />
      <PathText
        path={['branding', 'copyrightFooter']}
        label={t('branding.copyrightFooter')}
        maxLength={200}
        help={t('branding.copyrightFooterHelp')}
      />
      <CustomCssField />
    </div>
  );
}

function ColorField({ color }: { color: BrandingColor }) {
  const { t } = useTranslation();
  const { draft, set } = useEditor();
  const path = ['branding', 'colors', color];
  const value = getIn(draft.config, path);
  const text = typeof value === 'string' ? value : '';
  const error = useIssue(path);
  const id = useId();
  const label = t(`branding.color.${color}`);
  return (
    <div className="foyer-field console-color">
      <label className="foyer-label" htmlFor={id}>
        {label}
      </label>
      <div className="console-color__inputs">
        <input
          type="color"
          className="console-color__picker"
          aria-label={t('branding.picker', { color: label })}
          value={pickerValue(text, DEFAULT_COLORS[color])}
          onChange={(event) => set(path, event.target.value)}
        />
        <input
          id={id}
          className="foyer-input console__mono"
          value={text}
          placeholder={DEFAULT_COLORS[color]}
          maxLength={60}
          spellCheck={false}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => set(path, event.target.value.trim())}
        />
      </div>
      {error && (
        <p id={`${id}-error`} className="foyer-field-error">
          {error}
        </p>
      )}
    </div>
  );
}

function LogoField() {
  const { t } = useTranslation();
  const { api } = useConsole();
  const { appId, draft, set } = useEditor();
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const logo = typeof draft.config.logo === 'string' ? draft.config.logo : '';
  const issue = useIssue(['logo']);
  const upload = useMutation({
    mutationFn: (file: File) => api.uploadLogo(appId, file, file.type || 'application/octet-stream'),
    onSuccess: ({ url }) => set(['logo'], url),
    onSettled: () => {
      if (inputRef.current) inputRef.current.value = '';
    },
  });
  const [chosen, setChosen] = useState<string | null>(null);
  const describedBy = `${inputId}-help${upload.isError || issue ? ` ${inputId}-error` : ''}`;
  return (
    <div className="foyer-field">
      <span className="foyer-label">{t('branding.logo')}</span>
      {logo ? (
        <img className="console-logo" src={logo} alt={t('branding.currentLogo')} />
      ) : (
        <p className="foyer-help">{t('branding.noLogo')}</p>
      )}
      <label className="foyer-label console-logo__choose" htmlFor={inputId}>
        {t('branding.uploadLogo')}
      </label>
      <input
        ref={inputRef}
        id={inputId}
        type="file"
        accept={LOGO_TYPES.join(',')}
        aria-describedby={describedBy}
        disabled={upload.isPending}
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (!file) return;
          setChosen(file.name);
          upload.mutate(file);
        }}
      />
      <p id={`${inputId}-help`} className="foyer-help" role="status">
        {upload.isPending ? t('branding.uploading', { name: chosen }) : t('branding.logoHelp', { kb: LOGO_MAX_BYTES / 1024 })}
      </p>
      {(upload.isError || issue) && (
        <p id={`${inputId}-error`} className="foyer-field-error" role="alert">
          {upload.isError ? errorText(t, upload.error, 'branding.uploadFailed') : issue}
        </p>
      )}
      {logo && (
        <Button variant="secondary" size="sm" className="console__inline-button" onClick={() => set(['logo'], null)}>
          {t('branding.removeLogo')}
        </Button>
      )}
    </div>
  );
}

function CustomCssField() {
  const { t } = useTranslation();
  const { draft, set } = useEditor();
  const id = useId();
  const path = ['branding', 'customCss'];
  const value = getIn(draft.config, path);
  const css = typeof value === 'string' ? value : '';
  const error = useIssue(path);
  const tooLong = css.length > CUSTOM_CSS_MAX_LENGTH;
  return (
    <div className="foyer-field">
      <label className="foyer-label" htmlFor={id}>
        {t('branding.customCss')}
      </label>
      <textarea
        id={id}
        className="foyer-input console__textarea console__mono"
        value={css}
        spellCheck={false}
        aria-invalid={error || tooLong ? true : undefined}
        aria-describedby={`${id}-help ${id}-count${error ? ` ${id}-error` : ''}`}
        onChange={(event) => set(path, event.target.value)}
      />
      <p id={`${id}-help`} className="foyer-help">
        {t('branding.customCssHelp')}
      </p>
      <p id={`${id}-count`} className={tooLong ? 'foyer-field-error' : 'foyer-help'}>
        {t('branding.customCssCount', { used: css.length.toLocaleString('en'), max: CUSTOM_CSS_MAX_LENGTH.toLocaleString('en') })}
      </p>
      {error && (
        <p id={`${id}-error`} className="foyer-field-error">
          {error}
        </p>
      )}
    </div>
  );
}
