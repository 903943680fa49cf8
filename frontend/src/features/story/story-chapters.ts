export const CHAPTER_IDS = [
  'intro',
  'language-creation',
  'generational-bridge',
  'global-translation',
  'future-vision',
  'climax',
  'time-vortex',
  'resolution',
] as const;

export type ChapterId = (typeof CHAPTER_IDS)[number];

export interface StoryOption {
  label: string;
}

export interface IntroOption extends StoryOption {
  passage: string;
}

interface ChapterBase {
  id: ChapterId;
  title: string;
  paragraphs: readonly string[];
}

export interface ChoiceChapter extends ChapterBase {
  interaction: 'choice';
  options: readonly [StoryOption, StoryOption] | readonly [StoryOption, StoryOption, StoryOption];
}

export interface TextChapter extends ChapterBase {
  interaction: 'text';
  prompt: string;
  placeholder: string;
  submitLabel: string;
}

export interface AnimationChapter extends ChapterBase {
  interaction: 'animation';
  buttonLabel: 'Enter the Time Vortex';
  choice: 'Continue through time';
}

export type StoryChapter = ChoiceChapter | TextChapter | AnimationChapter;

/** The intro's options each open their own passage, shown once the option is chosen. */
export interface IntroChapter extends ChoiceChapter {
  id: 'intro';
  options: readonly [IntroOption, IntroOption, IntroOption];
}

export const INTRO_CHAPTER: IntroChapter = {
  id: 'intro',
  title: 'The First Giggle',
  interaction: 'choice',
  paragraphs: [
    'Long ago, in the dial-up age, a lonely pixel blinked on a beige monitor. Somewhere, a human typed three letters and pressed Enter: LOL.',
    'Nobody was actually laughing out loud. Everybody understood anyway. A language was born, and it had no grammar, no dictionary and absolutely no chill.',
    'Where do you step into the story?',
  ],
  options: [
    {
      label: 'Follow the three little letters',
      passage:
        'You chase LOL across chat rooms and forum threads. It mutates as it runs: lol, LOLZ, lulz, a keyboard smash. By the time you catch it, it has learned to laugh in every font.',
    },
    {
      label: 'Ask the yellow face what it feels',
      passage:
        'The smiley tilts its head, sheds a single tear of joy and answers in 3,600 faces at once. You realise feelings now fit in a single character, and most of them are crying-laughing.',
    },
    {
      label: 'Open the mysterious cat picture',
      passage:
        'The cat stares back. Bold white letters appear above it, misspelled on purpose. Within the hour it has a million cousins, and you understand: the meme is the message.',
    },
  ],
};

export const STORY_CHAPTERS: readonly StoryChapter[] = [
  INTRO_CHAPTER,
  {
    id: 'language-creation',
    title: 'The Language Nobody Planned',
    interaction: 'text',
    paragraphs: [
      'Acronyms multiplied like rabbits in a server room. BRB, ROFL, SMH, IYKYK. Each one squeezed a whole mood into a few keystrokes.',
      'The internet dictionary has one empty page left, and it is reserved for you.',
    ],
    prompt: 'Coin a brand-new internet acronym (and what it means)',
    placeholder: 'e.g. TTYIAM: talk to you in a meme',
    submitLabel: 'Add to the dictionary',
  },
  {
    id: 'generational-bridge',
    title: 'The Generational Bridge',
    interaction: 'choice',
    paragraphs: [
      'Grandma signs her texts "LOL" because she thinks it means "lots of love". Her grandson sends a skull emoji to say something is hilarious. The family group chat is in crisis.',
      'Someone has to build a bridge across the generations before Thanksgiving.',
    ],
    options: [
      { label: 'Teach Grandma the skull emoji' },
      { label: 'Adopt "lots of love" for everyone' },
      { label: 'Start a family meme night' },
    ],
  },
  {
    id: 'global-translation',
    title: 'Lost (and Found) in Translation',
    interaction: 'choice',
    paragraphs: [
      'In Thailand people laugh with 55555, because five is pronounced "ha". In Brazil it is kkkkk, in Japan wwww, in France mdr. Same joke, many keyboards.',
      'A single meme arrives at the border of every language at once. How does it cross?',
    ],
    options: [
      { label: 'Let the picture do the talking' },
      { label: 'Remix it in every local flavour' },
    ],
  },
  {
    id: 'future-vision',
    title: 'A Glimpse of Tomorrow',
    interaction: 'text',
    paragraphs: [
      'You peek through a crack in the timeline. Holograms share reaction GIFs. A Mars colony runs on inside jokes. Robots have learned sarcasm, which worries everyone slightly.',
    ],
    prompt: 'What will the first viral meme of the year 2100 be about?',
    placeholder: 'e.g. a cat refusing to leave the spaceship',
    submitLabel: 'Send it to the future',
  },
  {
    id: 'climax',
    title: 'The Great Buffering',
    interaction: 'choice',
    paragraphs: [
      'Disaster strikes: the whole planet starts taking itself seriously. Group chats go quiet. Reply-all returns. Comment sections are polite, and frankly it is terrifying.',
      'Only one perfectly timed joke can break the spell.',
    ],
    options: [
      { label: 'Drop the ultimate cat meme' },
      { label: 'Post a single, devastating emoji' },
      { label: 'Tell a dad joke to the whole world' },
    ],
  },
  {
    id: 'time-vortex',
    title: 'The Time Vortex',
    interaction: 'animation',
    paragraphs: [
      'The laughter echoes so loudly that it tears a hole in the timeline. Inside, every meme ever made spins in a glittering spiral: dancing babies, rickrolls, distracted boyfriends and the surprised cat.',
      'The only way forward is through.',
    ],
    buttonLabel: 'Enter the Time Vortex',
    choice: 'Continue through time',
  },
  {
    id: 'resolution',
    title: 'One World, One LOL',
    interaction: 'choice',
    paragraphs: [
      'You tumble out of the vortex into a world where a grandmother in Lagos, a student in Seoul and a farmer in Montana share the same joke in the same second, and all of them get it.',
      'Humour has become the one language everybody speaks fluently. It was never about the letters. It was about laughing together.',
    ],
    options: [{ label: 'Pass the joke on' }, { label: 'Save it for a rainy day' }],
  },
];
