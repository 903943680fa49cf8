import { DESKTOP, layoutScreens } from './layout-screens';

// Every screen on a desktop; the event leaderboard on a TV; focus rings and reduced motion.
layoutScreens({ widths: [DESKTOP], tvKeyboardAndMotion: true });
