import { INTRO_CHAPTER, STORY_CHAPTERS, type ChapterId, type StoryChapter } from './story-chapters';

export interface JourneyEntry {
  chapterId: ChapterId;
  answer: string;
  freeText: boolean;
}

export interface StoryState {
  index: number;
  journey: readonly JourneyEntry[];
  /** The free text typed for the current chapter and not yet sent. */
  draft: string;
}

export type StoryAction =
  | { type: 'answer'; answer: string }
  | { type: 'draft'; text: string }
  | { type: 'advance' }
  | { type: 'restart' };

export const INITIAL_STORY_STATE: StoryState = { index: 0, journey: [], draft: '' };

export function currentChapter(state: StoryState): StoryChapter {
  const chapter = STORY_CHAPTERS[state.index];
  if (!chapter) throw new RangeError(`No story chapter at index ${state.index}`);
  return chapter;
}

export function isLastChapter(state: StoryState): boolean {
  return state.index === STORY_CHAPTERS.length - 1;
}

/** One answer per chapter: once the current chapter is answered, input is locked until it advances. */
export function isAnswered(state: StoryState): boolean {
  return state.journey.length > state.index;
}

export function introPassage(state: StoryState): string | undefined {
  const introAnswer = state.journey[0]?.answer;
  return INTRO_CHAPTER.options.find((option) => option.label === introAnswer)?.passage;
}

export function storyReducer(state: StoryState, action: StoryAction): StoryState {
  switch (action.type) {
    case 'answer': {
      const answer = action.answer.trim();
      if (answer === '' || isAnswered(state)) return state;
      const chapter = currentChapter(state);
      const entry: JourneyEntry = {
        chapterId: chapter.id,
        answer,
        freeText: chapter.interaction === 'text',
      };
      return { ...state, journey: [...state.journey, entry], draft: '' };
    }
    case 'draft':
      return isAnswered(state) ? state : { ...state, draft: action.text };
    case 'advance':
      if (!isAnswered(state) || isLastChapter(state)) return state;
      return { ...state, index: state.index + 1 };
    case 'restart':
      return INITIAL_STORY_STATE;
  }
}
