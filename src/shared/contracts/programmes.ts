/**
 * Programmes' API (issue 37, item 2; decision 0051): the published list and one programme (public, as
 * the catalogue is), a person's enrolments and progress (theirs alone), and the admin's management.
 */
import { z } from 'zod';
import { ASSIGNABLE_CATEGORIES } from '#shared/catalogue.ts';
import { isValidTimezone } from '#shared/days.ts';
import { PROGRAMME_LIMITS as L, PROGRAMME_MESSAGES as M, PROGRAMME_SLUG } from '#shared/programmes.ts';
import { hasControlCharacters } from '#shared/validation.ts';
import type { SchemaTable } from '#shared/contracts/route.ts';

const COVERS = ASSIGNABLE_CATEGORIES.map((c) => c.id) as [string, ...string[]];

const programmeSlugSchema = z.string(M.badSlug).max(L.slugMax, M.badSlug).regex(PROGRAMME_SLUG, M.badSlug);
const programmeSlugParams = z.object({ slug: programmeSlugSchema });
const programmeIdParams = z.object({ id: z.uuid() });

const timeZoneSchema = z
  .string(M.badTimezone)
  .max(64, M.badTimezone)
  .refine(isValidTimezone, M.badTimezone);

// ---- public reads

const programmeSummarySchema = z.object({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  cover: z.string(),
  dayCount: z.number(),
});
export type ProgrammeSummary = z.infer<typeof programmeSummarySchema>;
const programmesResponse = z.object({ programmes: z.array(programmeSummarySchema) });

const programmeDaySchema = z.object({
  number: z.number(),
  meditation: z.object({
    id: z.string(),
    title: z.string(),
    duration: z.string(),
    durationSeconds: z.number().nullable(),
    /** Playable without the subscription (decision 0025); day 1 always is (decision 0051). */
    free: z.boolean(),
  }),
  reflection: z.string().nullable(),
});
export type ProgrammeDay = z.infer<typeof programmeDaySchema>;
const programmeResponse = programmeSummarySchema.extend({ days: z.array(programmeDaySchema) });
export type ProgrammeDetail = z.infer<typeof programmeResponse>;

// ---- the person's progress

const progressSchema = z.object({
  slug: z.string(),
  title: z.string(),
  dayCount: z.number(),
  startedAt: z.string(),
  timeZone: z.string(),
  doneCount: z.number(),
  /** The day to do next, or null when finished. */
  current: z.number().nullable(),
  /** The calendar day (YYYY-MM-DD, in the enrolment's zone) the current day opens; null when open or finished. */
  opensOn: z.string().nullable(),
  finished: z.boolean(),
  days: z.array(z.object({ number: z.number(), state: z.enum(['done', 'open', 'waiting', 'later']), doneAt: z.string().nullable() })),
});
export type ProgrammeProgressView = z.infer<typeof progressSchema>;
/** One programme's progress; `progress` is null when the person has not started it. */
const programmeProgressResponse = z.object({ progress: progressSchema.nullable() });
export type ProgrammeProgressResponse = z.infer<typeof programmeProgressResponse>;
/** Every programme the person has started, the most recently started first. */
const myProgrammesResponse = z.object({ enrolments: z.array(progressSchema) });

const enrolBody = z.strictObject(
  {
    timeZone: timeZoneSchema,
    /** Start again from day 1 when already started; without it, starting twice changes nothing. */
    restart: z.boolean().optional(),
  },
  M.extraField,
);
const leaveResponse = z.object({ left: z.literal(true) });

// ---- admin

const text = (max: number, message: string, multiline = false) =>
  z
    .string(message)
    .trim()
    .min(1, message)
    .max(max, message)
    .refine((value) => !hasControlCharacters(value, { multiline }), message);

const adminDayBody = z.strictObject(
  {
    meditationId: z.uuid(M.badMeditation),
    reflection: z.union([text(L.reflectionMax, M.badReflection, true), z.null()]).optional(),
  },
  M.extraField,
);
export const programmeBody = z.strictObject(
  {
    slug: programmeSlugSchema,
    title: text(L.titleMax, M.badTitle),
    description: text(L.descriptionMax, M.badDescription, true),
    cover: z.enum(COVERS, M.badCover),
    published: z.boolean().optional(),
    days: z.array(adminDayBody, M.badDays).min(L.daysMin, M.badDays).max(L.daysMax, M.badDays),
  },
  M.extraField,
);
export type ProgrammeBody = z.infer<typeof programmeBody>;

const publishBody = z.strictObject({ published: z.boolean() }, M.extraField);
export const orderBody = z.strictObject({ ids: z.array(z.uuid(M.badOrder), M.badOrder).max(L.programmesMax, M.badOrder) }, M.extraField);

const adminProgrammeSchema = programmeSummarySchema.extend({
  published: z.boolean(),
  position: z.number(),
  updatedAt: z.string(),
  days: z.array(z.object({ number: z.number(), meditationId: z.string().nullable(), title: z.string().nullable(), free: z.boolean(), reflection: z.string().nullable() })),
});
export type AdminProgramme = z.infer<typeof adminProgrammeSchema>;
const adminProgrammeResponse = adminProgrammeSchema;
const adminProgrammesResponse = z.object({ programmes: z.array(adminProgrammeSchema) });
const deleteProgrammeResponse = z.object({ deleted: z.literal(true) });

/** The programmes routes' contracts, by route name (their method, path and policy: programmes.routes.ts). */
export const programmesSchemas = {
  list: { response: programmesResponse },
  get: { params: programmeSlugParams, response: programmeResponse },
  mine: { response: myProgrammesResponse },
  progress: { params: programmeSlugParams, response: programmeProgressResponse },
  enrol: { params: programmeSlugParams, body: enrolBody, response: programmeProgressResponse },
  leave: { params: programmeSlugParams, response: leaveResponse },
  openNext: { params: programmeSlugParams, response: programmeProgressResponse },
  adminList: { response: adminProgrammesResponse },
  create: { body: programmeBody, response: { 201: adminProgrammeResponse } },
  update: { params: programmeIdParams, body: programmeBody, response: adminProgrammeResponse },
  publish: { params: programmeIdParams, body: publishBody, response: adminProgrammeResponse },
  order: { body: orderBody, response: adminProgrammesResponse },
  remove: { params: programmeIdParams, response: deleteProgrammeResponse },
} satisfies SchemaTable;
