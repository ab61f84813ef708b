// Saves the draft in the background: ~400 ms after the last edit, one PUT at a time and in order, so
// the server always ends up with the newest edit; refusals come back as field issues.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { ApiError } from '../../src/http/errors.ts';
import type { AdminApi } from '../api/client.ts';
import { appsQueryKey } from '../screens/AppsList.tsx';
import type { DraftAction, DraftState, SaveFailure } from './draft-state.ts';

export const SAVE_DELAY_MS = 400;

export function saveFailure(error: unknown): SaveFailure {
  if (error instanceof ApiError) return { code: error.code ?? `HTTP_${error.statusCode}`, message: error.message, issues: error.issues };
  return { code: 'NETWORK', message: error instanceof Error ? error.message : String(error), issues: [] };
}

export function useDraftSaver(api: AdminApi, appId: string, state: DraftState, dispatch: (action: DraftAction) => void) {
  const queryClient = useQueryClient();
  const latest = useRef(state);
  latest.current = state;
  const chain = useRef<Promise<void>>(Promise.resolve());
  /** The newest revision a save was started for (a flush and the timer never send one twice). */
  const attempted = useRef(state.revision);

  const saveNow = useCallback((): Promise<void> => {
    const { config, revision, savedRevision } = latest.current;
    if (revision === savedRevision || revision <= attempted.current) return chain.current;
    attempted.current = revision;
    chain.current = chain.current.then(async () => {
      try {
        await api.saveDraft(appId, config);
        dispatch({ type: 'saved', revision });
        void queryClient.invalidateQueries({ queryKey: appsQueryKey });
      } catch (error) {
        dispatch({ type: 'saveFailed', revision, failure: saveFailure(error) });
      }
    });
    return chain.current;
  }, [api, appId, dispatch, queryClient]);

  useEffect(() => {
    // A loaded document (restore, discard) is the server's: nothing to save.
    if (state.revision === state.savedRevision) {
      attempted.current = Math.max(attempted.current, state.revision);
      return;
    }
    const timer = setTimeout(() => void saveNow(), SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [state.revision, state.savedRevision, saveNow]);

  // Leaving the editor (another page of the console) sends the edit still waiting for its timer.
  useEffect(() => () => void saveNow(), [saveNow]);

  /** Sends the current edit again after a failure that was not about its values (network, server). */
  const retry = useCallback((): Promise<void> => {
    attempted.current = latest.current.savedRevision;
    return saveNow();
  }, [saveNow]);

  return { saveNow, retry };
}
