import { STORY_CHAPTERS } from './story-chapters';
import { INITIAL_STORY_STATE, type JourneyEntry, type StoryState } from './story-state';

/** The story as this device last left it. The version is in the key: another shape is another key. */
export const STORY_KEY = 'tapgram.story.v1';
/** The free-text field's limit (FreeTextAnswer), and so the longest answer or draft kept. */
export const STORY_TEXT_MAX = 120;

const isText = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= STORY_TEXT_MAX;

/** The entry the reader gave for the chapter at `index`, when `value` is one. */
function journeyEntry(value: unknown, index: number): JourneyEntry | null {
  if (typeof value !== 'object' || value === null) return null;
  const { chapterId, answer, freeText } = value as Record<string, unknown>;
  const chapter = STORY_CHAPTERS[index];
  if (chapter === undefined || chapterId !== chapter.id) return null;
  if (!isText(answer) || answer.trim() === '') return null;
  if (freeText !== (chapter.interaction === 'text')) return null;
  return { chapterId: chapter.id, answer, freeText };
}

/**
 * What was stored, when it is a story this version can continue: a chapter, one answer for each
 * chapter before it (and maybe for it), a draft. Anything else (corrupt JSON, an older shape, an
 * edited value) is null, and the reader starts over.
 */
export function parseStory(raw: string | null): StoryState | null {
  if (raw === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { index, journey, draft } = value as Record<string, unknown>;
  if (!Number.isInteger(index) || !Array.isArray(journey) || !isText(draft)) return null;
  const at = index as number;
  if (at < 0 || at >= STORY_CHAPTERS.length) return null;
  if (journey.length !== at && journey.length !== at + 1) return null;
  const entries = journey.map(journeyEntry);
  if (entries.some((entry) => entry === null)) return null;
  return { index: at, journey: entries as JourneyEntry[], draft };
}

/** Storage can be missing or refuse (private modes, a full quota): the story then lives in the page. */
function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The stored story, or the start when there is none to continue (a bad one is removed). */
export function loadStory(): StoryState {
  const store = storage();
  try {
    const raw = store?.getItem(STORY_KEY) ?? null;
    const story = parseStory(raw);
    if (raw !== null && story === null) store?.removeItem(STORY_KEY);
    return story ?? INITIAL_STORY_STATE;
  } catch {
    return INITIAL_STORY_STATE;
  }
}

/** Keeps `story` on the device; the start of the story is kept as nothing at all. */
export function saveStory(story: StoryState): void {
  const store = storage();
  try {
    if (story.index === 0 && story.journey.length === 0 && story.draft === '') {
      store?.removeItem(STORY_KEY);
    } else {
      store?.setItem(STORY_KEY, JSON.stringify(story));
    }
  } catch {
    // Storage refused: the story goes on in this page.
  }
}
