// What every editor section reads and edits: the app, the draft, the refused fields and the preview.
import { createContext, useContext } from 'react';
import type { AppConfig } from '../../common/app-config.ts';
import type { AppDetail } from '../api/types.ts';
import type { PathSegment } from './config-path.ts';
import type { DraftAction, DraftState, DraftStatus } from './draft-state.ts';

export interface PreviewedVersion {
  version: number;
  config: AppConfig;
}

export interface Editor {
  appId: string;
  detail: AppDetail;
  draft: DraftState;
  status: DraftStatus;
  /** The server's message for each refused field of the current draft, by JSON pointer. */
  issues: Record<string, string>;
  dispatch(action: DraftAction): void;
  edit(update: (config: AppConfig) => AppConfig): void;
  /** Sets one value of the config ('' or undefined removes it). */
  set(path: PathSegment[], value: unknown): void;
  /** Saves pending edits now; resolves once the server answered. */
  flush(): Promise<void>;
  /** Sends the current edit again after a failed save. */
  retrySave(): Promise<void>;
  previewed: PreviewedVersion | null;
  setPreviewed(version: PreviewedVersion | null): void;
}

export const EditorContext = createContext<Editor | null>(null);

export function useEditor(): Editor {
  const editor = useContext(EditorContext);
  if (!editor) throw new Error('useEditor outside EditorContext');
  return editor;
}
