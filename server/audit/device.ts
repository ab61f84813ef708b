// The device a User-Agent names, as people recognise it ("Firefox", "macOS"), for the profile's
// activity and sessions lists. bowser keeps its browser and OS tables current.
import Bowser from 'bowser';

export interface Device {
  browser: string | null;
  os: string | null;
}

export function deviceOf(userAgent: string | null | undefined): Device {
  if (!userAgent) return { browser: null, os: null };
  const parsed = Bowser.parse(userAgent);
  return { browser: parsed.browser.name || null, os: parsed.os.name || null };
}
