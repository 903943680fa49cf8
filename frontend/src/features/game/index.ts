/** What other screens take from the game: its channel's state and its boards, live. */
export { useSocketConnected, useSocketReconnecting } from './game-socket';
export {
  useGamePushes,
  useLeaderboardCountries,
  useLeaderboardUsers,
  useMilestone,
} from './queries';
export { Countdown } from './seasons/Countdown';
export {
  useCurrentSeason,
  useSeasonCountries,
  useSeasonPushes,
  useSeasonUsers,
} from './seasons/season-queries';
