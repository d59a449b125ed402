/**
 * Business constants from the specification (consumer document §9, admin document §9).
 * One source of truth for server and web.
 */
export const APP_VERSION_LABEL = '1.0.0';
export const SUPPORT_EMAIL = 'support@harbourmind.app';

export const TRIAL_DAYS = 7;
/** The 'your trial ends soon' e-mail goes out this many days before the trial ends (issue 17, item 3). */
export const TRIAL_REMINDER_DAYS_BEFORE = 2;
export const PRICES_GBP = { monthly: 7.99, yearly: 39.99, yearlySaving: 55.89 } as const;
export const PRODUCT_IDS = { monthly: 'hm_plus_monthly', yearly: 'hm_plus_yearly' } as const;

export const RECENTLY_ADDED_LIMIT = 10;
export const MIN_PASSWORD_LENGTH = 6;

export const TOAST_DURATION_MS = 4000;
export const TOAST_MAX_VISIBLE = 3;

export const EMAIL_MAX = 254;
export const NAME_MIN = 2;
export const NAME_MAX = 100;

/**
 * Native shells ask for a bearer session at sign-in with this header (value `bearer`) and then send
 * `Authorization: Bearer <token>`. Without it the session lives only in an HttpOnly cookie and no
 * response ever hands the token to page scripts.
 */
export const SESSION_TRANSPORT_HEADER = 'x-session-transport';

/** JSON request bodies are small; uploads go through their own streaming route. */
export const JSON_BODY_LIMIT_BYTES = 256 * 1024;

/**
 * Trusted audio lengths (security issue 12, item 13). A header can claim any length, so an
 * uploaded file's measured duration must also fit its size: compressed speech and music never go
 * below ~6 kbit/s (HE-AAC v2; MP3's floor is 8 kbit/s). No meditation is longer than 4 hours,
 * which also caps the minutes one session can credit to practice stats.
 */
export const MAX_AUDIO_SECONDS = 4 * 60 * 60;
export const MIN_AUDIO_BYTES_PER_SECOND = 750;

/** localStorage keys used by the web app. */
export const STORAGE_KEYS = {
  dailyAffirmation: 'hm.dailyAffirmation',
  /** Completed sessions waiting to be sent (offline or failed uploads). */
  pendingSessions: 'hm.pendingSessions',
  /** Where each meditation was left off, per account (`hm.positions.<user id>`, or `.visitor`). */
  playbackPositions: 'hm.positions',
  playerPreferences: 'hm.playerPreferences',
  /** Today's routine ticks and custom rows, kept on this device as they change (saving them is the spec's Save). */
  routineDraft: { morning: 'hm.routineDraft.morning', evening: 'hm.routineDraft.evening' },
  /** The spec's saved routine progress (its key names). Both routine keys are cleared on sign-out. */
  routineProgress: { morning: 'morningRoutineProgress', evening: 'eveningRoutineProgress' },
  /** The colour theme chosen on this device (shared/theme.ts). */
  theme: 'hm.theme',
  /** The last /api/me answer (no secrets), for offline visits. */
  viewerSnapshot: 'hm.viewer',
  /** Inside the apps: whether completed sessions go to Apple Health / Health Connect ('on' or 'off'; unset: not asked yet). */
  mindfulMinutes: 'hm.mindfulMinutes',
  /** That this browser joined the beta waitlist (a date only: no name or address kept on the device). */
  waitlistJoined: 'hm.waitlistJoined',
  /** Inside the Android app, while Sign in with Apple is open in the system browser: its PKCE verifier and when it began (decision 0071). */
  appleSignInVerifier: 'hm.appleSignIn',
} as const;

/** Spec 'Audio' constants, plus the player features beyond the spec. */
export const AUDIO = {
  loadTimeoutMs: 10_000,
  fadeIn: { steps: 10, stepMs: 25 },
  crossfade: { steps: 20, totalMs: 250 },
  seekStepSeconds: 15,
  completionOverlayMs: 3000,
  sliderStep: 0.1,
  fullPlayerViewportHeight: 90,
  startDelayMs: 10,
  playbackRates: [0.75, 0.9, 1, 1.1, 1.25],
  sleepTimerMinutes: [5, 10, 15, 30, 45, 60],
  /** Refresh a signed playback URL this long before it expires. */
  urlRefreshMarginMs: 30_000,
} as const;

/** Spec 'Diagnostics': 5 taps on the version label, reset after 3 s without tapping. */
export const DIAGNOSTICS = { taps: 5, tapResetMs: 3000 } as const;
