/**
 * Whether the browser says it has a connection (navigator.onLine and its online/offline events),
 * for what the page offers while offline (issue 38, item 5). Not a promise that the server answers:
 * requests still fail with their own messages. The server's prepared page assumes online.
 */
import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, () => navigator.onLine, () => true);
}
