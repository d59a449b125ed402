/**
 * The apps' identity-token sign-in body (`POST /api/auth/sign-in/social` with `idToken`), checked before
 * better-auth sees it: the nonce it must carry, and Apple's authorization code beside it (decision 0064).
 */
import { ERROR_TEXT } from '#shared/error-text.ts';
import { ID_TOKEN_REFUSED } from '#shared/native-sign-in.ts';

type Body = Record<string, unknown>;

/**
 * better-auth checks an identity token's nonce only when one is sent. The apps always make one (a
 * token caught on its way to another app cannot be replayed without it), so one is required here.
 */
export function idTokenProblem(body: Body): string | undefined {
  if (body.idToken === undefined) return undefined;
  const idToken = typeof body.idToken === 'object' && body.idToken !== null ? (body.idToken as Body) : {};
  const nonce = idToken.nonce;
  if (typeof nonce !== 'string' || nonce.length < 16) return ID_TOKEN_REFUSED;
  // Apple's authorization code from the app (exchanged for the refresh token revoked at deletion, decision 0064).
  const code = idToken.authorizationCode;
  if (code !== undefined && (typeof code !== 'string' || code.length === 0 || code.length > 1024)) return ERROR_TEXT['validation/invalid-input'];
  return undefined;
}

/** Apple's authorization code sent beside an identity token, if any (checked by idTokenProblem). */
export function appleCodeOf(body: Body): { identityToken: string; code: string } | undefined {
  if (body.provider !== 'apple' || typeof body.idToken !== 'object' || body.idToken === null) return undefined;
  const { token, authorizationCode } = body.idToken as Body;
  return typeof token === 'string' && typeof authorizationCode === 'string' ? { identityToken: token, code: authorizationCode } : undefined;
}
