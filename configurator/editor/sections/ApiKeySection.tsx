// API key: when the current key was made; Regenerate (after confirmation) replaces every old key and
// shows the new one once.
import { useConsole } from '../../session.tsx';
import { useEditor } from '../context.ts';
import { SectionHeading } from './SectionHeading.tsx';
import { ShownOnceSecret } from './ShownOnceSecret.tsx';

export function ApiKeySection() {
  const { api } = useConsole();
  const { appId, detail } = useEditor();
  return (
    <div className="foyer-stack">
      <SectionHeading label="sections.apiKey" intro="apiKey.intro" />
      <ShownOnceSecret texts="apiKey" createdAt={detail.apiKeyCreatedAt} make={async () => (await api.regenerateApiKey(appId)).apiKey} />
    </div>
  );
}
