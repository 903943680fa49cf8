import { describe, expect, it } from 'vitest';
import { STORY_CHAPTERS } from '../../src/features/story/story-chapters';
import { parseStory, STORY_TEXT_MAX } from '../../src/features/story/story-storage';

const [intro, second] = STORY_CHAPTERS;
const introAnswer = { chapterId: intro.id, answer: 'lol', freeText: false };
const secondAnswer = {
  chapterId: second.id,
  answer: 'bruh',
  freeText: second.interaction === 'text',
};
const kept = (story: unknown) => parseStory(JSON.stringify(story));

describe('a kept story', () => {
  it('goes on from its chapter, with an answer for each chapter before it and maybe for its own', () => {
    expect(kept({ index: 1, journey: [introAnswer], draft: 'typing' })).toEqual({
      index: 1,
      journey: [introAnswer],
      draft: 'typing',
    });
    expect(kept({ index: 1, journey: [introAnswer, secondAnswer], draft: '' })).not.toBeNull();
  });

  it.each([
    ['nothing kept', null],
    ['corrupt JSON', '{"index":1,'],
    ['not an object', '"story"'],
    [
      'a chapter out of range',
      JSON.stringify({ index: STORY_CHAPTERS.length, journey: [], draft: '' }),
    ],
    ['a chapter that is no whole number', JSON.stringify({ index: 0.5, journey: [], draft: '' })],
    [
      'answers missing for chapters before',
      JSON.stringify({ index: 2, journey: [introAnswer], draft: '' }),
    ],
    ['answers of other chapters', JSON.stringify({ index: 1, journey: [secondAnswer], draft: '' })],
    [
      'a blank answer',
      JSON.stringify({ index: 1, journey: [{ ...introAnswer, answer: ' ' }], draft: '' }),
    ],
    [
      'free text where a choice was',
      JSON.stringify({ index: 1, journey: [{ ...introAnswer, freeText: true }], draft: '' }),
    ],
    [
      'a draft too long for the field',
      JSON.stringify({ index: 0, journey: [], draft: 'x'.repeat(STORY_TEXT_MAX + 1) }),
    ],
    ['no draft', JSON.stringify({ index: 0, journey: [] })],
  ])('is refused for %s', (_what, raw) => {
    expect(parseStory(raw)).toBeNull();
  });
});
