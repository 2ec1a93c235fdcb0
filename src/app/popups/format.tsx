import { Fragment, type ReactNode } from 'react';
import DOMPurify from 'dompurify';

/** True when the text already carries markup (such confirm text is kept as markup). */
export function hasMarkup(text: string): boolean {
  return /<\/?[a-z][\s\S]*>/i.test(text);
}

/**
 * Plain popup text: line breaks become breaks and each tab four spaces. The
 * spaces survive because the popup body keeps white space (`white-space: pre-wrap`).
 */
export function formatPopupText(text: string): ReactNode {
  const lines = text.replace(/\t/g, '    ').split(/\r\n|\r|\n/);
  return lines.map((line, i) => (
    <Fragment key={i}>
      {i > 0 && <br />}
      {line}
    </Fragment>
  ));
}

/** Markup without scripts, event handlers or javascript: links. */
export function sanitizeMarkup(markup: string): string {
  return DOMPurify.sanitize(markup, { USE_PROFILES: { html: true } });
}
