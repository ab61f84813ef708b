// Phone numbers as people type them (server/notify/phone.ts): international format, valid for the
// country's numbering plan, answered in E.164.
import { describe, expect, it } from 'vitest';
import { toE164 } from '../../../server/notify/phone.ts';

describe('toE164', () => {
  it('reads international numbers with the separators people type', () => {
    expect(toE164('+46701234567')).toBe('+46701234567');
    expect(toE164(' +46 70-123 45.67 ')).toBe('+46701234567');
    expect(toE164('+1 (202) 555-0143')).toBe('+12025550143');
  });

  it('refuses national numbers, a missing country code, impossible lengths and other text', () => {
    for (const typed of ['0701234567', '+0701234567', '+4670123456789012', '+46 70 ABC 45 67', 'call +46701234567', '+46 1', '']) {
      expect(toE164(typed), typed).toBeUndefined();
    }
  });
});
