/** Where the scale seed lives: one named database on the server that `adminUrl` points at. */

/** `adminUrl` with its database replaced by `name`. */
export function scaleDatabaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
