// The password policy's answers as a warning list while the user types (docs/SPEC.md section 5). The flow
// computes the problems ({"passwordProblems": [...]}) and uses the same answer to disable its button;
// with a `repeat` prop, a repeat that differs from the password is listed too.
import { useState } from 'react';
import { useTexts } from '../i18n/texts.ts';
import type { FlowComponentProps } from '../flow/component-types.ts';
import { Alert } from '../theme/Alert.tsx';

function keysOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

export default function PasswordPolicy({ props }: FlowComponentProps) {
  const { t } = useTexts();
  const typing = typeof props.password === 'string' && props.password !== '';
  // Nothing to warn about before the first key; afterwards an emptied field says so too.
  const [typed, setTyped] = useState(typing);
  if (typing && !typed) setTyped(true);
  const repeat = typeof props.repeat === 'string' ? props.repeat : '';
  const problems = [...keysOf(props.problems), ...(repeat !== '' && repeat !== props.password ? ['password.mismatch'] : [])];
  if (!typed || problems.length === 0) return null;
  return (
    <Alert variant="warning" polite>
      <ul className="foyer-alert__list" aria-label={t('password.policy.label')}>
        {problems.map((key) => (
          <li key={key}>{t(key)}</li>
        ))}
      </ul>
    </Alert>
  );
}
