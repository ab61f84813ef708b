// The live preview: the real runtime in an iframe on this same origin, fed the draft (or a version being looked at) as
// soon as it says it is ready and after every edit; its screen, language and width are the owner's.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SUPPORTED_LOCALES } from '../../common/locales.ts';
import type { AppConfig } from '../../common/app-config.ts';
import { Button } from '../../src/theme/Button.tsx';
import { LanguageSelect } from '../components/LanguageSelect.tsx';
import { postToPreview, previewScreens, previewUrl, runtimeSignal, type PreviewScreen } from './preview-protocol.ts';

export interface PreviewProps {
  appId: string;
  appName: string;
  config: AppConfig;
  /** Set while a published version is shown instead of the draft. */
  previewedVersion?: number;
  onBackToDraft(): void;
}

type Width = 'desktop' | 'mobile';

export function Preview({ appId, appName, config, previewedVersion, onBackToDraft }: PreviewProps) {
  const { t } = useTranslation();
  const frameRef = useRef<HTMLIFrameElement>(null);
  const [ready, setReady] = useState(false);
  const [applied, setApplied] = useState(false);
  const [screen, setScreen] = useState<PreviewScreen>('login');
  const [language, setLanguage] = useState('en');
  const [width, setWidth] = useState<Width>('desktop');
  const origin = window.location.origin;
  const latest = useRef({ config, screen, language });
  latest.current = { config, screen, language };

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const signal = runtimeSignal(event, frameRef.current?.contentWindow, origin);
      if (signal === 'applied') setApplied(true);
      if (signal !== 'ready') return;
      // Every (re)load of the frame starts from the published app: send it everything again.
      const frame = frameRef.current?.contentWindow;
      const current = latest.current;
      postToPreview(frame, { type: 'config', config: current.config }, origin);
      postToPreview(frame, { type: 'screen', screen: current.screen }, origin);
      postToPreview(frame, { type: 'language', language: current.language }, origin);
      setReady(true);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [origin]);

  useEffect(() => {
    if (!ready) return;
    setApplied(false);
    postToPreview(frameRef.current?.contentWindow, { type: 'config', config }, origin);
  }, [config, ready, origin]);

  useEffect(() => {
    if (ready) postToPreview(frameRef.current?.contentWindow, { type: 'screen', screen }, origin);
  }, [screen, ready, origin]);

  useEffect(() => {
    if (ready) postToPreview(frameRef.current?.contentWindow, { type: 'language', language }, origin);
  }, [language, ready, origin]);

  const languages = [...new Set<string>([...SUPPORTED_LOCALES, ...Object.keys(config.translations ?? {})])];

  return (
    <aside className="console-preview foyer-panel" aria-labelledby="console-preview-heading">
      <h2 id="console-preview-heading" className="foyer-section-title">
        {previewedVersion === undefined ? t('preview.heading') : t('preview.versionHeading', { version: previewedVersion })}
      </h2>
      {previewedVersion !== undefined && (
        <Button variant="secondary" size="sm" className="console__inline-button" onClick={onBackToDraft}>
          {t('preview.backToDraft')}
        </Button>
      )}
      <div className="console-preview__controls">
        <div className="foyer-field">
          <label className="foyer-label" htmlFor="preview-screen">
            {t('preview.screen')}
          </label>
          <select
            id="preview-screen"
            className="foyer-select"
            value={screen}
            onChange={(event) => setScreen(event.target.value as PreviewScreen)}
          >
            {previewScreens.map((option) => (
              <option key={option} value={option}>
                {t(`preview.screens.${option}`)}
              </option>
            ))}
          </select>
        </div>
        <LanguageSelect id="preview-language" label={t('preview.language')} languages={languages} value={language} onChange={setLanguage} />
        <fieldset className="console-preview__width">
          <legend className="foyer-label">{t('preview.width')}</legend>
          {(['desktop', 'mobile'] as const).map((option) => (
            <label key={option} className="foyer-checkbox">
              <input type="radio" name="preview-width" value={option} checked={width === option} onChange={() => setWidth(option)} />
              {t(`preview.widths.${option}`)}
            </label>
          ))}
        </fieldset>
      </div>
      <p className="foyer-help" role="status">
        {!ready ? t('preview.loading') : applied ? t('preview.upToDate') : t('preview.updating')}
      </p>
      <div className="console-preview__stage">
        <iframe
          ref={frameRef}
          className={`console-preview__frame console-preview__frame--${width}`}
          src={previewUrl(origin, appId)}
          title={t('preview.frameTitle', { name: appName })}
        />
      </div>
    </aside>
  );
}
