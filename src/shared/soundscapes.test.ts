/** The background sound kept on the device (issue 37, item 3): read back field by field, never trusted whole. */
import { describe, expect, it } from 'vitest';
import { readSoundscapePreference, SOUNDSCAPE, SOUNDSCAPE_CHOICES, SOUNDSCAPE_MESSAGES } from '#shared/soundscapes.ts';

describe('the kept background sound', () => {
  it('reads back what was kept', () => {
    expect(readSoundscapePreference(JSON.stringify({ choice: 'brown-noise', volume: 0.3 }))).toEqual({ choice: 'brown-noise', volume: 0.3 });
  });

  it('falls back to None at the default volume for nothing, garbage or another shape, field by field', () => {
    const fallback = { choice: 'none', volume: SOUNDSCAPE.defaultVolume };
    expect(readSoundscapePreference(null)).toEqual(fallback);
    expect(readSoundscapePreference('{not json')).toEqual(fallback);
    expect(readSoundscapePreference('"rain"')).toEqual(fallback);
    expect(readSoundscapePreference(JSON.stringify({ choice: 'thunder', volume: 0.2 }))).toEqual({ choice: 'none', volume: 0.2 });
    expect(readSoundscapePreference(JSON.stringify({ choice: 'ocean', volume: 'loud' }))).toEqual({ choice: 'ocean', volume: SOUNDSCAPE.defaultVolume });
    expect(readSoundscapePreference(JSON.stringify({ choice: 'ocean', volume: 7 }))).toEqual({ choice: 'ocean', volume: 1 });
  });

  it('offers the issue’s names, in its order', () => {
    expect(SOUNDSCAPE_CHOICES.map((id) => SOUNDSCAPE_MESSAGES.labels[id])).toEqual(['None', 'Rain', 'Ocean', 'Forest', 'Brown noise']);
    expect(SOUNDSCAPE_MESSAGES.heading).toBe('Background sound');
  });
});
