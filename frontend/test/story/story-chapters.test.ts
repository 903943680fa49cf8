import { describe, expect, it } from 'vitest';
import { INTRO_CHAPTER, STORY_CHAPTERS } from '../../src/features/story/story-chapters';

describe('story chapters', () => {
  it('tells the eight chapters in order, ending with the resolution', () => {
    expect(STORY_CHAPTERS.map((chapter) => chapter.id)).toEqual([
      'intro',
      'language-creation',
      'generational-bridge',
      'global-translation',
      'future-vision',
      'climax',
      'time-vortex',
      'resolution',
    ]);
  });

  it('gives the intro three options, each with its own passage', () => {
    expect(STORY_CHAPTERS[0]).toBe(INTRO_CHAPTER);
    const passages = new Set(INTRO_CHAPTER.options.map((option) => option.passage));
    expect(passages.size).toBe(3);
  });

  it('uses every interaction type, with the vortex recording "Continue through time"', () => {
    const vortex = STORY_CHAPTERS.find((chapter) => chapter.interaction === 'animation');
    expect(vortex?.interaction === 'animation' && vortex.choice).toBe('Continue through time');
    expect(STORY_CHAPTERS.some((chapter) => chapter.interaction === 'text')).toBe(true);
  });
});
