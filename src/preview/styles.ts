// The draft's look (common/branding-css.ts) in one constructable stylesheet adopted by the
// document: the CSP forbids inline <style>, adoptedStyleSheets is allowed. The published look (the
// API host's custom.css <link>) is removed once a draft applies, since the draft replaces it entirely.
export interface StyleTarget {
  /** Shows `css` instead of whatever the previous call showed. */
  show(css: string): void;
}

/** The document's preview stylesheet: created on first use, replaced in place afterwards. */
export function documentStyles(document: Document, publishedStylesheetId: string): StyleTarget {
  let sheet: CSSStyleSheet | undefined;
  return {
    show(css) {
      document.getElementById(publishedStylesheetId)?.remove();
      if (!sheet) {
        sheet = new CSSStyleSheet();
        document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
      }
      sheet.replaceSync(css);
    },
  };
}
