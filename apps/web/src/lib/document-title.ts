import { useEffect } from 'react';

/** The product's name after every page's own in the browser tab. */
const TITLE_SUFFIX = 'Latchkey';

/** `document.title` names the page the admin is on ("Users · Latchkey"); the product alone without one. */
export function useDocumentTitle(page: string | null): void {
  useEffect(() => {
    document.title = page ? `${page} · ${TITLE_SUFFIX}` : TITLE_SUFFIX;
  }, [page]);
}
