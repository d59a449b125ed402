/**
 * Typed fetch for the JSON API. Failures throw ApiError carrying the server's code and message,
 * so screens can show the spec's wording; an answer without the server's code (a proxy's error
 * page, a gateway timeout) is read by the spec's keyword mapping (shared/error-mapping.ts).
 */
import { errorCodeFromText, RETRYABLE_CODES } from '#shared/error-mapping.ts';
import type { ErrorCode } from '#shared/error-codes.ts';
import { FALLBACK_ERROR_TEXT, type FallbackErrorCode } from '#shared/error-text-fallback.ts';
import { takeEarly } from '#web/lib/early-requests.ts';
import { platform } from '#web/platform/platform.ts';

/** The server's codes, plus the client's own: no connection, and an offline copy whose access lapsed. */
export type ApiErrorCode = ErrorCode | 'network' | 'offline/lapsed';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    /** Seconds from a 429's Retry-After header. */
    readonly retryAfter?: number,
    /** The server's `error.details`, where a route sends more than words (a 409's current version). */
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** What a caller may add to a route's request (call.ts): the method, path and body come from the route. */
export type CallOptions = {
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /**
   * The request outlives the page (fetch's keepalive): for a small write the screen has already shown
   * as done (a heart filled at once), which a person may follow by leaving the page. Without it the
   * browser cancels the write with the page, and the save shown is lost. Browsers cap what keepalive
   * requests may carry at 64 KB in all, so only bodiless or tiny writes ask for it.
   */
  keepalive?: boolean;
};

type Options = CallOptions & { method?: string; body?: unknown };

export async function api<T>(path: string, { method = 'GET', body, signal, headers: extra = {}, keepalive }: Options = {}): Promise<T> {
  // The web calls its own origin with the cookie; inside the apps the platform names the server and the bearer session.
  const shell = platform();
  let response: Response;
  try {
    // A GET the entry started before the app loaded (early-requests.ts; the web only) is answered by it.
    const early = method === 'GET' && body === undefined && Object.keys(extra).length === 0 ? takeEarly(path) : undefined;
    response = await (early ?? fetch(shell.apiUrl(path), {
      method,
      signal,
      keepalive,
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(await shell.sessionHeaders()), ...extra },
      body: body === undefined ? undefined : JSON.stringify(body),
    }));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network', 'Unable to reach Harbour Mind. Please check your connection.');
  }
  await shell.noteResponse(response);
  const text = await response.text();
  const data = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const err = (data as { error?: { code?: ErrorCode; message?: string; details?: unknown } } | undefined)?.error;
    const retryAfter = Number(response.headers.get('retry-after')) || undefined;
    // The server words every error it sends; the catalogue's full table stays out of the first load.
    if (err?.code) throw new ApiError(response.status, err.code, err.message ?? FALLBACK_ERROR_TEXT.default, retryAfter, err.details);
    const code = codeWithoutServerWords(response.status, `${response.statusText} ${text.slice(0, 2000)}`);
    throw new ApiError(response.status, code, FALLBACK_ERROR_TEXT[code], retryAfter);
  }
  return data as T;
}

/** A failure the app's server did not word (a proxy or gateway in between): by status, then by the spec's keywords. */
function codeWithoutServerWords(status: number, text: string): FallbackErrorCode {
  if (status === 408 || status === 504) return 'network/timeout';
  if (status === 429) return 'rate-limit/exceeded';
  if (status === 502 || status === 503) return 'server/unavailable';
  return errorCodeFromText(text);
}

/** Worth a second try: no connection at all, or a code the spec calls retryable. */
export function isRetryable(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.code === 'network' || RETRYABLE_CODES.has(error.code));
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
