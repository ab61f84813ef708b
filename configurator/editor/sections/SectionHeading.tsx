import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../layout/usePageTitle.ts';
import { useEditor } from '../context.ts';

/** The section's heading (h2 under the app name) and the page title "<section> · <app>". */
export function SectionHeading({ label, intro }: { label: string; intro?: string }) {
  const { t } = useTranslation();
  const { detail } = useEditor();
  usePageTitle(t('editor.sectionTitle', { section: t(label), app: detail.app.name }));
  return (
    <>
      <h2 className="foyer-panel__heading console-editor__section-heading">{t(label)}</h2>
      {intro && <p className="foyer-help">{t(intro)}</p>}
    </>
  );
}
