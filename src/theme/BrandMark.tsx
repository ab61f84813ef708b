// A logo, or, where there is none or it fails to load, the name's initials on a neutral tile (a grey
// placeholder picture reads as a page still loading).
import { useState } from 'react';

/** The first letters of the name's first two words, upper case: "Demo app" → "DA". */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return words
    .slice(0, 2)
    .map((word) => [...word][0]!.toLocaleUpperCase())
    .join('');
}

export interface BrandMarkProps {
  src?: string | null;
  /** The name the mark stands for: its initials when there is no picture. */
  name: string;
  /** The text alternative ("Acme logo"). */
  alt: string;
  className: string;
}

export function BrandMark({ src, name, alt, className }: BrandMarkProps) {
  const [failed, setFailed] = useState<string | null>(null);
  if (src && failed !== src) return <img className={className} src={src} alt={alt} onError={() => setFailed(src)} />;
  return (
    <span className={`${className} foyer-mark`} role="img" aria-label={alt}>
      <span aria-hidden="true">{initialsOf(name)}</span>
    </span>
  );
}
