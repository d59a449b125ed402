/**
 * Cookies as a browser keeps them: the one place tests turn Set-Cookie into the Cookie header they
 * send back, for app.inject (auth-helpers.ts), raw sockets and real servers alike.
 */

/** The Cookie header for the cookies one response set (names and values; attributes dropped). */
export function cookieHeader(setCookie: string | string[] | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list.map((c) => c.split(';')[0]).join('; ');
}

export type CookieJar = {
  /** Keeps what a response set: a new value replaces the old, an expired or emptied cookie is dropped. */
  remember: (setCookie: string | string[] | undefined) => void;
  /** The Cookie header for the next request ('' when the jar is empty). */
  header: () => string;
};

export function createCookieJar(): CookieJar {
  const jar = new Map<string, string>();
  return {
    remember(setCookie) {
      for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
        const [pair = '', ...attributes] = line.split(';');
        const at = pair.indexOf('=');
        if (at < 1) continue;
        const name = pair.slice(0, at).trim();
        const value = pair.slice(at + 1).trim();
        const expired = attributes.some((a) => /^\s*max-age=(0|-\d+)\s*$/i.test(a)) || value === '';
        if (expired) jar.delete(name);
        else jar.set(name, value);
      }
    },
    header: () => [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
  };
}
