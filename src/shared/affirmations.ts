/**
 * The pool of daily affirmations (spec: 50). Gentle, first person, present tense; honest enough
 * for hard days and bodies that hurt. No DOM or Node imports: shared by server and web.
 */
export const AFFIRMATIONS: readonly string[] = [
  'I am allowed to take this day one breath at a time.',
  'I can be gentle with myself, even when today is hard.',
  'My worth is not measured by what I get done.',
  'I meet this moment as it is, and that is enough.',
  'Rest is not a reward I have to earn.',
  'I can listen to my body without arguing with it.',
  'Some days surviving is the achievement, and I honour that.',
  'I am learning to be a kind companion to myself.',
  'I let my shoulders soften and my breath slow down.',
  'I do not have to have everything figured out today.',
  'My feelings are messengers, not masters.',
  'I can hold hope and hurt at the same time.',
  'Tonight I give myself permission to put the day down.',
  'I welcome this morning without rushing it.',
  'Small steps still carry me forward.',
  'I am more than my diagnosis.',
  'My pain is real, and so is my strength.',
  'I can adjust my plans without abandoning myself.',
  'I choose one small kindness for myself today.',
  'I am safe to slow down right now.',
  'I can say no to what drains me and yes to what restores me.',
  'Change is unsettling, and I am finding my footing.',
  'I give myself the patience I would give a friend.',
  'Every breath is a chance to begin again.',
  'I trust that this feeling will pass, like weather.',
  'I do not need to be perfect to be worthy of care.',
  'My sleep can come gently; I do not have to chase it.',
  'I am allowed to take up space.',
  'I notice one good thing, and I let it in.',
  'I can return to my breath whenever I lose my way.',
  'What I feel matters, and I am listening.',
  'I release what I cannot control and tend to what I can.',
  'My body has carried me this far, and I thank it.',
  'I am allowed to ask for help.',
  'I can begin this chapter with curiosity instead of fear.',
  'There is quiet inside me that no busy day can take away.',
  'I forgive myself for the things I did not know.',
  'I am growing, even when I cannot see it.',
  'Today I will notice when I am being hard on myself, and soften.',
  'My energy is precious, and I spend it with care.',
  'I am not behind; I am on my own path.',
  'I can feel anxious and still be okay.',
  'Joy is allowed to visit me, even on ordinary days.',
  'I let go of the day and welcome rest.',
  'I am patient with the parts of me that are still healing.',
  'My breath is an anchor I always carry with me.',
  'I celebrate how far I have come.',
  'I can choose calm, one moment at a time.',
  'Endings make room for new beginnings.',
  'I belong here, exactly as I am.',
];

/**
 * The affirmation of a calendar day (YYYY-MM-DD, the person's local date): the pool in turn, one a
 * day, fixed by the date, so every visit, reload and device shows the same one all day (issue 38:
 * three fresh visits within seven seconds showed three), none twice within fifty days, and the
 * day's reminder (reminders.ts) says the same words as home.
 */
export function affirmationForDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  const dayNumber = Math.floor(Date.UTC(year, month - 1, date) / 86_400_000);
  if (!Number.isFinite(dayNumber)) return AFFIRMATIONS[0];
  return AFFIRMATIONS[((dayNumber % AFFIRMATIONS.length) + AFFIRMATIONS.length) % AFFIRMATIONS.length];
}
