// Copying a secret for the person (an authenticator key, a recovery code): whether it worked is
// announced, and a refused clipboard says to copy by hand.
import { useState } from 'react';

export type CopyOutcome = 'copied' | 'failed' | undefined;

export function useCopyToClipboard(): [CopyOutcome, (text: string) => void] {
  const [outcome, setOutcome] = useState<CopyOutcome>();
  const copy = (text: string) => {
    navigator.clipboard.writeText(text).then(
      () => setOutcome('copied'),
      () => setOutcome('failed'),
    );
  };
  return [outcome, copy];
}
