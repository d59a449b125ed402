/** The tab's title for a screen: 'Journal · Harbour Mind', or just the app's name. */
import { useEffect } from 'react';

export function usePageTitle(title?: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Harbour Mind` : 'Harbour Mind';
  }, [title]);
}
