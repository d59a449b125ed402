/**
 * Typed fetch for the JSON API. Failures throw ApiError carrying the server's code and message,
 * so screens can show the spec's wording.
 */
import type { ErrorCode } from '#shared/messages.ts';

/** The server's codes, plus the client's own: no connection, and an offline copy whose access lapsed. */
export type ApiErrorCode = ErrorCode | 'network' | 'offline/lapsed';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    /** Seconds from a 429's Retry-After header. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

type Options = { method?: string; body?: unknown; signal?: AbortSignal; headers?: Record<string, string> };

export async function api<T>(path: string, { method = 'GET', body, signal, headers: extra = {} }: Options = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      signal,
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...extra },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network', 'Unable to reach Harbour Mind. Please check your connection.');
  }
  const text = await response.text();
  const data = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const err = (data as { error?: { code?: ErrorCode; message?: string } } | undefined)?.error;
    const retryAfter = Number(response.headers.get('retry-after')) || undefined;
    throw new ApiError(response.status, err?.code ?? 'default', err?.message ?? `Request failed (${response.status})`, retryAfter);
  }
  return data as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
