// A text whose parts are marked with tags (`I agree to the <privacy>privacy policy</privacy>`): each
// `<name>…</name>` is drawn by `parts[name]` around its words, the rest as plain text. Tags without a
// drawing show their words only.
import { Fragment, type ReactNode } from 'react';

export function TaggedText({ text, parts }: { text: string; parts: Record<string, (words: string) => ReactNode> }): ReactNode {
  const drawn: ReactNode[] = [];
  let from = 0;
  for (const match of text.matchAll(/<(\w+)>(.*?)<\/\1>/g)) {
    if (match.index > from) drawn.push(text.slice(from, match.index));
    const [whole, name, words] = match as unknown as [string, string, string];
    const draw = parts[name];
    drawn.push(<Fragment key={match.index}>{draw ? draw(words) : words}</Fragment>);
    from = match.index + whole.length;
  }
  if (from < text.length) drawn.push(text.slice(from));
  return drawn;
}
